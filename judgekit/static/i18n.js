// The words the browser code shows people, read from a catalog: t(key, params) -> text.
//
// The catalog is static/i18n/en.json (English is the only language yet): a flat object from
// keys ("recorder.sent_n") to texts with named places ("Sent {count} entries."). A text that
// depends on a number is an object of plural forms ({"one": "…", "other": "…"}, the
// categories of Intl.PluralRules) chosen by params.count. The server's own words (pages,
// flash messages, errors) are in its catalog, not here.
//
// The catalog is read once per page, before the modules that import this one run (a
// top-level await; base.html preloads the file as the page opens). In Node (tests/js/) it
// is read from the file. A catalog that cannot be read leaves the keys showing, never a
// broken page.
export const LANG = "en";
const url = new URL("./i18n/" + LANG + ".json", import.meta.url);

async function read() {
  try {
    if (url.protocol === "file:") {
      const fs = await import("node:fs");
      return JSON.parse(fs.readFileSync(url, "utf8"));
    }
    const res = await fetch(url);
    if (!res.ok) throw new Error("answered " + res.status);
    return await res.json();
  } catch (err) {
    console.warn("judgekit: the catalog of words could not be read:", err && err.message);
    return {};
  }
}

const catalog = await read();
const plurals = new Intl.PluralRules(LANG);
const own = Object.prototype.hasOwnProperty;

export function has(key) { return own.call(catalog, key); }

export function t(key, params) {
  let text = own.call(catalog, key) ? catalog[key] : key;
  if (text && typeof text === "object") {
    const count = params && params.count;
    text = text[plurals.select(Number(count))] ?? text.other ?? key;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (place, name) => (own.call(params, name) ? String(params[name]) : place));
}
