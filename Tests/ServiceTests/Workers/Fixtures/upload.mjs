// Uploads images as a relay written for Node would (fetch, FormData), one request per file, and
// prints a JSON array of {file, status, type, body} (the body parsed).
// Usage: node upload.mjs PORT PATH SHAPE FILE...   (SHAPE "-": no shape field, for /v1/thumbhash)
import { readFile } from "node:fs/promises";

const [port, path, shape, ...files] = process.argv.slice(2);
const results = [];
for (const name of files) {
  const form = new FormData();
  if (shape !== "-") form.append("shape", shape);
  form.append("image", new Blob([await readFile(name)]), "x");
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", body: form });
  results.push({
    file: name.split("/").pop(), status: answer.status,
    type: answer.headers.get("content-type") ?? "", body: await answer.json(),
  });
}
console.log(JSON.stringify(results));
