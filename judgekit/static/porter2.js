// The Porter2 ("English") stemmer, for query words the offline index does not contain (the
// corpus' own words come stemmed from the server, whose analyzer uses whoosh's porter2).
// Written from the published algorithm (snowball.tartarus.org/algorithms/english).
// porter2(word) -> stem (this module's default export); used by static/offline-index.js (and
// offline-search.js's internals, for the tests).
const porter2 = (function () {
  var VOWEL = /[aeiouy]/;
  var DOUBLES = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];
  var LI_ENDING = /[cdeghkmnrt]$/;
  var EXCEPTIONS = { skis: "ski", skies: "sky", dying: "die", lying: "lie", tying: "tie",
    idly: "idl", gently: "gentl", ugly: "ugli", early: "earli", only: "onli", singly: "singl",
    sky: "sky", news: "news", howe: "howe", atlas: "atlas", cosmos: "cosmos", bias: "bias",
    andes: "andes" };
  var AFTER_1A = ["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"];
  var STEP2 = [["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"],
    ["abli", "able"], ["entli", "ent"], ["ization", "ize"], ["izer", "ize"], ["ation", "ate"],
    ["ator", "ate"], ["alism", "al"], ["aliti", "al"], ["alli", "al"], ["fulness", "ful"],
    ["ousli", "ous"], ["ousness", "ous"], ["iveness", "ive"], ["iviti", "ive"], ["biliti", "ble"],
    ["bli", "ble"], ["fulli", "ful"], ["lessli", "less"], ["ogi", "og"], ["li", ""]];
  var STEP3 = [["ational", "ate"], ["tional", "tion"], ["alize", "al"], ["icate", "ic"],
    ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""], ["ative", ""]];
  var STEP4 = ["ement", "ance", "ence", "able", "ible", "ment", "ant", "ent", "ism", "ate", "iti",
    "ous", "ive", "ize", "ion", "al", "er", "ic"];

  function isVowel(c) { return VOWEL.test(c); }   // "Y" (a consonant y) is not one

  function region(w, from) {
    for (var i = Math.max(from, 1); i < w.length; i++) {
      if (!isVowel(w[i]) && isVowel(w[i - 1])) return i + 1;
    }
    return w.length;
  }

  function shortSyllableAt(w, end) {   // the syllable ending at index `end` (inclusive)
    if (end === 1) return isVowel(w[0]) && !isVowel(w[1]);
    return end >= 2 && !isVowel(w[end - 2]) && isVowel(w[end - 1]) && !isVowel(w[end]) &&
      !/[wxY]/.test(w[end]);
  }

  function endsWithAny(w, list) {
    var best = "";
    list.forEach(function (suf) {
      var s = Array.isArray(suf) ? suf[0] : suf;
      if (s.length > best.length && w.slice(-s.length) === s) best = s;
    });
    return best;
  }

  function porter2(word) {
    if (word.length <= 2) return word;
    if (EXCEPTIONS[word]) return EXCEPTIONS[word];
    var w = word.replace(/^'/, "");
    if (w[0] === "y") w = "Y" + w.slice(1);
    w = w.replace(/([aeiouy])y/g, "$1Y");
    var r1 = /^(gener|commun|arsen)/.test(w) ? w.match(/^(gener|commun|arsen)/)[0].length : region(w, 0);
    var r2 = region(w, r1 + 1);
    function inR1(suf) { return w.length - suf.length >= r1; }
    function inR2(suf) { return w.length - suf.length >= r2; }
    function cut(n) { w = w.slice(0, w.length - n); }
    // step 0: possessives
    var s0 = endsWithAny(w, ["'s'", "'s", "'"]);
    if (s0) cut(s0.length);
    // step 1a: plurals
    if (w.slice(-4) === "sses") cut(2);
    else if (/(ied|ies)$/.test(w)) { w = w.slice(0, -3) + (w.length > 4 ? "i" : "ie"); }
    else if (/(us|ss)$/.test(w)) { /* unchanged */ }
    else if (w.slice(-1) === "s" && VOWEL.test(w.slice(0, -2))) cut(1);
    if (AFTER_1A.indexOf(w) >= 0) return w;
    // step 1b
    var s1b = endsWithAny(w, ["eedly", "eed", "ingly", "edly", "ing", "ed"]);
    if (s1b === "eed" || s1b === "eedly") {
      if (inR1(s1b)) w = w.slice(0, -s1b.length) + "ee";
    } else if (s1b && VOWEL.test(w.slice(0, -s1b.length))) {
      cut(s1b.length);
      if (/(at|bl|iz)$/.test(w)) w += "e";
      else if (DOUBLES.indexOf(w.slice(-2)) >= 0) cut(1);
      else if (r1 >= w.length && shortSyllableAt(w, w.length - 1)) w += "e";
    }
    // step 1c
    if (w.length > 2 && /[yY]$/.test(w) && !isVowel(w[w.length - 2])) w = w.slice(0, -1) + "i";
    // step 2
    var s2 = endsWithAny(w, STEP2);
    if (s2 && inR1(s2)) {
      if (s2 === "ogi") { if (w.slice(-4, -3) === "l") w = w.slice(0, -3) + "og"; }
      else if (s2 === "li") { if (LI_ENDING.test(w.slice(0, -2))) cut(2); }
      else STEP2.forEach(function (p) { if (p[0] === s2) w = w.slice(0, -s2.length) + p[1]; });
    }
    // step 3
    var s3 = endsWithAny(w, STEP3);
    if (s3 && inR1(s3)) {
      if (s3 === "ative") { if (inR2(s3)) cut(5); }
      else STEP3.forEach(function (p) { if (p[0] === s3) w = w.slice(0, -s3.length) + p[1]; });
    }
    // step 4
    var s4 = endsWithAny(w, STEP4);
    if (s4 && inR2(s4)) {
      if (s4 !== "ion") cut(s4.length);
      else if (/[st]$/.test(w.slice(0, -3))) cut(3);
    }
    // step 5
    if (w.slice(-1) === "e") {
      if (inR2("e") || (inR1("e") && !shortSyllableAt(w, w.length - 2))) cut(1);
    } else if (w.slice(-2) === "ll" && inR2("l")) cut(1);
    return w.replace(/Y/g, "y");
  }

  return porter2;
})();

export default porter2;
