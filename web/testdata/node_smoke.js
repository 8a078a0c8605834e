// Runs the wasm client in Node as the page does (wasm_exec.js, then
// globalThis.aeroplane) and prints one JSON line of what it answered.
// Usage: node node_smoke.js DIR RULES POSITION DEPTH
"use strict";
const fs = require("fs");
const path = require("path");
const [dir, rules, pos, depth] = process.argv.slice(2);
require(path.join(dir, "wasm_exec.js"));
globalThis.aeroplaneReady = () => {
  const a = globalThis.aeroplane;
  const out = {
    perft: a.perft(rules, pos, Number(depth)),
    badPerft: a.perft(rules, "nonsense", 1),
    before: a.peerID(),
    key1: a.newKey(),
  };
  out.peerID = a.peerID();
  out.key2 = a.newKey();
  out.board = JSON.parse(a.board(a.start("RY")));
  console.log(JSON.stringify(out));
  process.exit(0);
};
const go = new Go();
WebAssembly.instantiate(fs.readFileSync(path.join(dir, "client.wasm")), go.importObject)
  .then(r => go.run(r.instance))
  .catch(e => { console.error(e); process.exit(1); });
