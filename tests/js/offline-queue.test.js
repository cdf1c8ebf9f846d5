// The recorder's outbox (static/offline-queue.js) without a page: no IndexedDB here, so the
// entries live in memory; the server is a list of answers, in order.
import { test } from "node:test";
import assert from "node:assert/strict";
import { outbox } from "../../judgekit/static/offline-queue.js";

let games = 0;
const UNREACHABLE = () => Promise.reject(new TypeError("Failed to fetch"));
const ok = (data = {}) => ({ ok: true, status: 200, data });
const refused = (status, data) => ({ ok: false, status, data });

// an outbox for a game of its own (the store is shared by the module), with the page's hooks
function make(answers, more = {}) {
  const api = "/api/games/" + (++games), sent = [], said = [];
  let stamped = 0;
  const box = outbox(api, {
    request(method, url, body) {
      sent.push([method, url.slice(api.length), body]);
      const next = answers.shift();
      if (next === undefined) throw new Error("the server was asked more than the test expected");
      return typeof next === "function" ? next() : Promise.resolve(next);
    },
    apply() {}, load: () => Promise.resolve(), say: (text, isError) => said.push([text, isError]),
    lastActive: () => ({ seq: 7 }), serialize: (job) => job(),
    stamp: (events, tapped) => events.map((e) => Object.assign({ client_id: "c" + (++stamped), device_time: tapped || "now" }, e)),
    seats: ["Ann", "Bob"], rerender() {},
    ...more,
  });
  return { box, sent, said, answers };
}

test("an entry the server stores is sent once and leaves nothing behind", async () => {
  const { box, sent, said } = make([ok({ findings: [] })]);
  assert.equal(await box.send([{ type: "bleed", seat: 1 }]), true);
  assert.deepEqual(sent, [["POST", "/events", [{ client_id: "c1", device_time: "now", type: "bleed", seat: 1 }]]]);
  assert.deepEqual(box.items(), []);
  assert.deepEqual(said.at(-1), ["Recorded.", false]);
});

test("with the server out of reach entries wait, then go out in the order they were made", async () => {
  const { box, sent, said, answers } = make([UNREACHABLE, UNREACHABLE]);
  assert.equal(await box.send([{ type: "bleed", seat: 1 }]), "queued");
  assert.equal(await box.send([{ type: "hunt", seat: 2 }]), "queued");
  assert.equal(box.pendingCount(), 2);
  assert.match(said.at(-1)[0], /^2 entries kept on this device, not yet sent \(offline\)/);
  answers.push(ok(), ok());
  const report = await box.flush();
  assert.equal(report.sent, 2);
  // the oldest first, and nothing after an entry that could not go out
  assert.deepEqual(sent.map((s) => s[2][0].type), ["bleed", "bleed", "bleed", "hunt"]);
  // each try of an entry carries the same client id: the server stores it once
  assert.deepEqual(sent.map((s) => s[2][0].client_id), ["c1", "c1", "c1", "c2"]);
  assert.deepEqual(box.items(), []);
  assert.deepEqual(said.at(-1), ["Sent 2 entries.", false]);
});

test("an entry refused at once is said, not kept", async () => {
  const { box, said } = make([refused(422, { error: "seat: no such seat", field: "seat" })]);
  assert.equal(await box.send([{ type: "bleed", seat: 9 }]), false);
  assert.deepEqual(box.items(), []);
  assert.deepEqual(said.at(-1), ["seat: no such seat", true]);
});

test("an entry the server fails on three times is refused and the entries after it go on", async () => {
  const fail = refused(500, { error: "boom" });
  const { box, said, answers } = make([UNREACHABLE]);
  await box.send([{ type: "bleed", seat: 1 }]);              // waits: it was not tried at once
  answers.push(UNREACHABLE);
  await box.send([{ type: "hunt", seat: 2 }]);
  answers.push(fail);
  await box.flush();
  assert.match(said.at(-1)[0], /^Not sent: the server failed \(500\); will try again/);
  answers.push(fail);
  await box.flush();
  answers.push(fail, ok());                                   // the third failure, then the hunt
  const report = await box.flush();
  assert.equal(report.sent, 1);
  const left = box.items();
  assert.equal(left.length, 1);
  assert.equal(left[0].state, "refused");
  assert.equal(left[0].events[0].type, "bleed");
  assert.match(left[0].error, /^the server failed 3 times \(HTTP 500\): boom/);
});

test("a waiting quick-entry line is read by the server, its events keep ids of their own", async () => {
  const { box, sent, answers } = make([UNREACHABLE]);
  assert.equal(await box.sendLine("ann bleeds bob for 2", "T1"), "queued");
  answers.push(ok({ events: [{ type: "bleed", seat: 1, judge: "anonymous" }] }), ok());
  await box.flush();
  assert.deepEqual(sent.map((s) => s[1]), ["/parse", "/parse", "/events"]);
  assert.deepEqual(sent[1][2], { line: "ann bleeds bob for 2", last_seq: 7 });
  const posted = sent[2][2][0];
  assert.match(posted.client_id, /:0$/);        // made from the waiting entry's own id
  assert.equal(posted.device_time, "T1");       // when it was typed
  assert.equal(posted.judge, undefined);        // the page's judge, not the parser's
});

test("undo while entries wait drops the newest of them", async () => {
  const { box, answers } = make([UNREACHABLE, UNREACHABLE]);
  await box.send([{ type: "bleed", seat: 1 }]);
  await box.send([{ type: "hunt", seat: 2 }]);
  const { dropped } = await box.dropLast();
  assert.equal(dropped.events[0].type, "hunt");
  assert.deepEqual(box.items().map((i) => i.events[0].type), ["bleed"]);
  answers.push(ok());
  await box.flush();                             // nothing left waiting (no retry timer)
  assert.deepEqual(box.items(), []);
});

// an answer held back until the test lets it go: the entry is on its way meanwhile
function held(answer) {
  let release;
  const gate = new Promise((resolve) => { release = () => resolve(answer); });
  return { next: () => gate, release };
}

test("undo while the newest entry is on its way says whether it landed", async () => {
  const slow = held(ok());
  const { box } = make([slow.next]);
  const sending = box.send([{ type: "bleed", seat: 1 }]);
  await new Promise((r) => setTimeout(r, 0));   // the request has left
  assert.equal(box.pendingCount(), 1);
  const undo = box.dropLast();
  slow.release();
  assert.deepEqual(await undo, { dropped: null, landed: true });
  assert.equal(await sending, true);
  assert.deepEqual(box.items(), []);
});

test("undo while the newest entry is on its way and then refused: not landed", async () => {
  const slow = held(refused(422, { error: "seat: no such seat" }));
  const { box } = make([slow.next]);
  const sending = box.send([{ type: "bleed", seat: 9 }]);
  await new Promise((r) => setTimeout(r, 0));
  const undo = box.dropLast();
  slow.release();
  assert.deepEqual(await undo, { dropped: null, landed: false });
  assert.equal(await sending, false);
});

test("a waiting entry is shown in the judge's words, never by its event type", async () => {
  const { box, answers } = make([UNREACHABLE, UNREACHABLE, UNREACHABLE]);
  await box.send([{ type: "block.result", seat: 2, blocked: true }], "Blocked → combat");
  await box.send([{ type: "action.declare", seat: 1, action: "hunt", minion: "Sigrid Bekker" }]);
  await box.send([{ type: "time.call" }]);
  const words = box.items().map((item) => box.words(item));
  assert.deepEqual(words, ["Blocked → combat", "Ann (1) · hunt · Sigrid Bekker", "an entry"]);
  for (const said of words) assert.doesNotMatch(said, /block\.result|action\.declare|time\.call/);
  answers.push(ok(), ok(), ok());
  await box.flush();                             // nothing left waiting (no retry timer)
  assert.deepEqual(box.items(), []);
});

test("the answer's redraw no longer shows the stored entry as waiting", async () => {
  const seen = [];
  let box;
  ({ box } = make([ok({ findings: [] })], { apply: () => seen.push(box.items().length) }));
  assert.equal(await box.send([{ type: "bleed", seat: 1 }], "Ann bleeds"), true);
  assert.deepEqual(seen, [0]);
});
