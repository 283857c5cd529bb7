// Sends request bodies that the service refuses from their headers with Node's own fetch, and
// prints one JSON array: the status each try received, or the error it met.
// usage: node early_errors.mjs PORT CASE TRIES
const cases = {
  "too-large": ["image/jpeg", 2_600_000],
  "wrong-type": ["text/plain", 1_500_000],
  "no-token": ["image/jpeg", 1_500_000],
};
const [port, name, tries] = [Number(process.argv[2]), process.argv[3], Number(process.argv[4])];
const [type, size] = cases[name];
const results = [];
for (let i = 0; i < tries; i++) {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/v1/artwork`, {
      method: "POST",
      headers: { "Content-Type": type },
      body: Buffer.alloc(size, 0xff),
    });
    await response.arrayBuffer();
    results.push(response.status);
  } catch (error) {
    results.push(error.cause?.code ?? error.name);
  }
}
console.log(JSON.stringify(results));
