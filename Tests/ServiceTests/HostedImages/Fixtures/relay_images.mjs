// Looks up and deletes a hosted image as a relay written for Node would (fetch only).
// Usage: node relay_images.mjs BASE TOKEN IMAGE_PATH
// Prints one JSON object: the facts, then the status of each step (a 4xx with its problem type).
const [base, token, image] = process.argv.slice(2);
const factsPath = image.replace(/\.[a-z]+$/, ".json");
const call = (method, path, auth = true) =>
  fetch(base + path, { method, headers: auth ? { Authorization: `Bearer ${token}` } : {} });

const result = {};
let answer = await call("GET", factsPath, false);
result.facts_status = answer.status;
result.facts_type = answer.headers.get("content-type");
result.facts = await answer.json();
answer = await call("DELETE", image, false);
result.unauthorised = [answer.status, answer.headers.get("content-type"), (await answer.json()).status];
answer = await call("DELETE", image);
result.deleted = [answer.status, (await answer.arrayBuffer()).byteLength];
for (const [name, method, path] of [["image_after", "GET", image], ["facts_after", "GET", factsPath],
                                     ["deleted_again", "DELETE", image]]) {
  answer = await call(method, path);
  result[name] = [answer.status, answer.headers.get("content-type"), (await answer.json()).status];
}
console.log(JSON.stringify(result));
