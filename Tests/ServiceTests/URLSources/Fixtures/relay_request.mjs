// One request as a relay written for Node makes it, with fetch: prints {status, headers, body}.
// Usage: node relay_request.mjs METHOD URL HEADERS_JSON BODY
const [method, url, headers, body] = process.argv.slice(2);
const answer = await fetch(url, {
  method,
  headers: JSON.parse(headers),
  body: body === "" ? undefined : body,
  signal: AbortSignal.timeout(60_000),
});
const text = await answer.text();
console.log(JSON.stringify({
  status: answer.status,
  headers: Object.fromEntries(answer.headers.entries()),
  body: text,
}));
