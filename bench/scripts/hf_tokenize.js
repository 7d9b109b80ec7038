// Times the Hugging Face Rust tokenizer (npm @anush008/tokenizers, an
// N-API binding of tokenizers 0.22) on the shared texts, the way
// shared/tokenizers/README.md measured its "single" column: one awaited
// encode per text, add_special_tokens=false, one warm-up pass, then REPS
// timed passes. Prints one JSON object per tokenizer on stdout.
//
//   node hf_tokenize.js NODE_PREFIX SHARED_DIR REPS NAME...
//
// NODE_PREFIX is the directory given to `npm install --prefix`.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");

async function main() {
  const [prefix, shared, repsArg, ...names] = process.argv.slice(2);
  const { Tokenizer } = require(path.join(prefix, "node_modules", "@anush008", "tokenizers"));
  const reps = parseInt(repsArg, 10);
  const opts = { addSpecialTokens: false };
  for (const name of names) {
    const lines = zlib
      .gunzipSync(fs.readFileSync(path.join(shared, "vectors", name + ".jsonl.gz")))
      .toString("utf8")
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l));
    const texts = lines.map((v) => v.text);
    const want = lines.reduce((a, v) => a + v.count, 0);
    const bytes = texts.reduce((a, t) => a + Buffer.byteLength(t, "utf8"), 0);

    const t0 = process.hrtime.bigint();
    const json = zlib.gunzipSync(fs.readFileSync(path.join(shared, name, "tokenizer.json.gz"))).toString("utf8");
    const tok = Tokenizer.fromString(json);
    const loadS = Number(process.hrtime.bigint() - t0) / 1e9;

    let tokens = 0;
    for (const t of texts) {
      tokens += (await tok.encode(t, null, opts)).getLength();
    }
    const wall = [];
    const cpu = [];
    for (let r = 0; r < reps; r++) {
      const c0 = process.cpuUsage();
      const w0 = process.hrtime.bigint();
      let n = 0;
      for (const t of texts) {
        n += (await tok.encode(t, null, opts)).getLength();
      }
      wall.push(Number(process.hrtime.bigint() - w0) / 1e9);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1e6);
      if (n !== tokens) throw new Error(`${name}: ${n} tokens, then ${tokens}`);
    }
    process.stdout.write(
      JSON.stringify({ name, texts: texts.length, bytes, tokens, want, load_s: loadS, wall_s: wall, cpu_s: cpu }) + "\n"
    );
  }
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
