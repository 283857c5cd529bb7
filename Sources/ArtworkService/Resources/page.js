// The page for people: calls this service's own API (same origin) and shows what it answers.
// No inline script or style anywhere (the page's Content-Security-Policy forbids both).
"use strict";

const TOKEN_KEY = "artwork.token";
const $ = (id) => document.getElementById(id);

// Tokens live for this tab's session only, never in localStorage or a cookie.
function token() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  } catch {
    return "";
  }
}

function setToken(value) {
  try {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage refused (private mode): the token lasts until the page is left.
  }
}

/** Thrown for an answer of 400 or more: the problem document and the request id. */
class Problem extends Error {
  constructor(status, body, requestID) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.requestID = body.request_id || requestID || "";
  }
}

/**
 * Calls the API; answers the parsed JSON (or the Response for non-JSON answers, and for
 * `raw: true`, whose caller reads the headers and the text as sent).
 */
async function api(path, init = {}) {
  const headers = new Headers(init.headers || {});
  if (token()) headers.set("Authorization", `Bearer ${token()}`);
  let response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    throw new Problem(0, {
      title: "No answer",
      detail: `The service could not be reached (${error.message}).`,
    });
  }
  const type = response.headers.get("Content-Type") || "";
  if (!response.ok) {
    let body = { title: `HTTP ${response.status}`, detail: response.statusText };
    if (type.includes("json")) body = await response.json().catch(() => body);
    if (response.status === 401) showTokenPanel();
    throw new Problem(response.status, body, response.headers.get("X-Request-Id"));
  }
  if (init.raw) return response;
  return type.includes("json") ? response.json() : response;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function showProblem(box, error) {
  box.replaceChildren();
  const problem = error instanceof Problem ? error : new Problem(0, { detail: String(error) });
  const heading = element("p");
  const title = problem.body.title || "Failed";
  heading.append(element("strong", problem.status ? `${title} (${problem.status})` : title));
  box.append(heading, element("p", problem.body.detail || problem.message, "detail"));
  if (problem.body.reason) box.append(element("p", `Stage: ${problem.body.reason}`, "meta"));
  if (problem.body.type) box.append(element("p", `Type: ${problem.body.type}`, "meta"));
  if (problem.requestID) {
    const meta = element("p", "Request id: ", "meta");
    meta.append(element("code", problem.requestID, "request-id"));
    box.append(meta);
  }
  box.hidden = false;
}

function hideProblem(box) {
  box.hidden = true;
  box.replaceChildren();
}

function bytesText(bytes) {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(2)} MB (${bytes} bytes)`;
  if (bytes >= 1000) return `${(bytes / 1000).toFixed(1)} kB (${bytes} bytes)`;
  return `${bytes} bytes`;
}

function facts(list, entries) {
  list.replaceChildren();
  for (const [term, value] of entries) {
    const dd = element("dd");
    if (value instanceof Node) dd.append(value);
    else dd.textContent = value;
    list.append(element("dt", term), dd);
  }
}

function colour(hex) {
  const span = element("span");
  const swatch = element("span", undefined, "swatch");
  swatch.style.backgroundColor = hex;
  span.append(swatch, hex);
  return span;
}

/** The URL of the PNG a ThumbHash draws (URL-safe base64, so `/` needs no escaping). */
function placeholderURL(hash) {
  const safe = hash.trim().replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `/v1/thumbhash/${encodeURIComponent(safe)}.png`;
}

async function busy(button, work) {
  button.disabled = true;
  button.setAttribute("aria-busy", "true");
  try {
    await work();
  } finally {
    button.disabled = false;
    button.removeAttribute("aria-busy");
  }
}

// Bearer token -------------------------------------------------------------------------------

function showTokenPanel() {
  const panel = $("token-panel");
  const wasHidden = panel.hidden;
  panel.hidden = false;
  $("token-status").textContent = token()
    ? "The service refused the token in use; enter another."
    : "Enter a token, then send again.";
  if (wasHidden) $("token-input").focus();
}

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  setToken($("token-input").value.trim());
  $("token-input").value = "";
  $("token-status").textContent = "Token kept for this tab. Send the request again.";
});

$("token-forget").addEventListener("click", () => {
  setToken("");
  $("token-status").textContent = "Token forgotten.";
});

// Artwork ------------------------------------------------------------------------------------

const fileInput = $("artwork-file");
const drop = $("drop");

function fileChosen() {
  const file = fileInput.files[0];
  $("artwork-file-name").textContent = file ? `${file.name}, ${bytesText(file.size)}` : "";
  if (file) $("artwork-url").value = "";
}

fileInput.addEventListener("change", fileChosen);
$("artwork-url").addEventListener("input", () => {
  if ($("artwork-url").value) {
    fileInput.value = "";
    fileChosen();
  }
});
for (const name of ["dragenter", "dragover"]) {
  drop.addEventListener(name, (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
}
for (const name of ["dragleave", "drop"]) {
  drop.addEventListener(name, () => drop.classList.remove("over"));
}
drop.addEventListener("drop", (event) => {
  event.preventDefault();
  if (!event.dataTransfer.files.length) return;
  const transfer = new DataTransfer();
  transfer.items.add(event.dataTransfer.files[0]);
  fileInput.files = transfer.files;
  fileChosen();
});

function artworkOptions(form) {
  const data = new FormData(form);
  return { shape: data.get("shape"), size: data.get("size"), crop: data.get("crop") };
}

function artworkRequest(options) {
  const file = fileInput.files[0];
  if (file) {
    const body = new FormData();
    for (const [name, value] of Object.entries(options)) body.append(name, value);
    body.append("image", file, file.name);
    return { method: "POST", body };
  }
  const url = $("artwork-url").value.trim();
  if (!url) return null;
  const size = Number(options.size);
  return {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url, ...options, size: Number.isInteger(size) ? size : options.size }),
  };
}

function frame(box, shape) {
  box.classList.remove("poster", "square", "circle");
  box.classList.add(shape);
}

function showArtwork(answer) {
  frame($("artwork-frame"), answer.image_shape);
  frame($("artwork-placeholder-frame"), answer.image_shape);
  $("artwork-image").src = answer.image_url;
  $("artwork-placeholder").src = placeholderURL(answer.image_thumbhash);
  const source = answer.source;
  facts($("artwork-facts"), [
    ["Stored", `${answer.width} × ${answer.height} ${answer.format}, ${bytesText(answer.bytes)}`],
    ["Source", `${source.width} × ${source.height} ${source.format}, ${bytesText(source.bytes)}`],
    ["Average colour", colour(answer.average_color)],
    ["Hosted at", answer.image_url],
  ]);
  const fields = {
    image_url: answer.image_url,
    image_shape: answer.image_shape,
    image_thumbhash: answer.image_thumbhash,
  };
  $("artwork-fields").textContent = JSON.stringify(fields, null, 2);
  $("copy-status").textContent = "";
  $("artwork-result").hidden = false;
}

$("artwork-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const problemBox = $("artwork-problem");
  const request = artworkRequest(artworkOptions(event.target));
  if (!request) {
    showProblem(problemBox, new Problem(0, {
      title: "No image",
      detail: "Choose or drop an image file, or paste an image URL.",
    }));
    return;
  }
  busy($("artwork-submit"), async () => {
    hideProblem(problemBox);
    try {
      showArtwork(await api("/v1/artwork", request));
    } catch (error) {
      $("artwork-result").hidden = true;
      showProblem(problemBox, error);
    }
  });
});

$("artwork-copy").addEventListener("click", async () => {
  const text = $("artwork-fields").textContent;
  try {
    await navigator.clipboard.writeText(text);
    $("copy-status").textContent = "Copied.";
  } catch {
    // No clipboard access: select the text so that the keyboard can copy it.
    const range = document.createRange();
    range.selectNodeContents($("artwork-fields"));
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    $("copy-status").textContent = "Selected: press Ctrl+C (⌘C) to copy.";
  }
});

// Phone check --------------------------------------------------------------------------------

function showReport(report) {
  const summary = $("check-summary");
  summary.textContent = report.ok
    ? "A phone would load this image."
    : "A phone would not load this image.";
  summary.className = `verdict ${report.ok ? "good" : "bad"}`;
  const list = $("check-list");
  list.replaceChildren();
  for (const check of report.checks) {
    // ok is true, false, or null for a rule the check did not reach.
    const state = check.ok === null ? "skipped" : check.ok ? "good" : "bad";
    const item = element("li", undefined, state);
    item.dataset.rule = check.name;
    const name = element("span", check.name, "name");
    const said = { good: "passes", bad: "fails", skipped: "not checked" }[state];
    const verdict = element("span", said, "visually-hidden");
    item.append(name, verdict, element("span", check.reason, "reason"));
    list.append(item);
  }
  const advice = $("check-advice");
  advice.replaceChildren(...report.advice.map((text) => element("li", text)));
  if (!report.advice.length) advice.append(element("li", "Nothing to add."));
  $("check-result").hidden = false;
}

$("check-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const button = event.submitter || event.target.querySelector("button");
  busy(button, async () => {
    hideProblem($("check-problem"));
    try {
      showReport(await api("/v1/check", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ url: $("check-url").value.trim() }),
      }));
    } catch (error) {
      $("check-result").hidden = true;
      showProblem($("check-problem"), error);
    }
  });
});

// Activity content ---------------------------------------------------------------------------

/**
 * POST /v1/content with the document as typed (the service reads it, so its errors are the
 * service's), as the update form when stored content is given. Shows the answer exactly as sent
 * back, with what its headers say.
 */
async function fillContent() {
  const document = $("content-document").value.trim();
  const stored = $("content-stored").value.trim();
  const wait = $("content-wait").value.trim();
  const headers = { "Content-Type": "application/json" };
  if (wait !== "") headers.Prefer = `wait=${wait}`;
  const body = stored ? `{"stored": ${stored}, "patch": ${document}}` : document;
  const response = await api("/v1/content", { method: "POST", headers, body, raw: true });
  const entries = [];
  for (const [name, label] of [
    ["Artwork-Status", "Artwork"],
    ["Artwork-Changed", "Artwork changed"],
    ["Age", "Remembered for (s)"],
  ]) {
    const value = response.headers.get(name);
    if (value !== null) entries.push([label, value]);
  }
  if (!entries.length) entries.push(["Artwork", "no image_url to fill"]);
  facts($("content-facts"), entries);
  $("content-answer").textContent = await response.text();
  $("content-result").hidden = false;
}

$("content-form").addEventListener("submit", (event) => {
  event.preventDefault();
  busy($("content-submit"), async () => {
    hideProblem($("content-problem"));
    try {
      await fillContent();
    } catch (error) {
      $("content-result").hidden = true;
      showProblem($("content-problem"), error);
    }
  });
});

// Providers ----------------------------------------------------------------------------------

/**
 * POST /v1/providers/{provider} with the body as pasted (the service reads it, so its errors,
 * a body that is not that application's, are the service's). Shows what the event is about,
 * the artwork it picks and the answer as sent.
 */
async function readProvider() {
  const provider = $("providers-name").value;
  const server = $("providers-server").value.trim();
  const wait = $("providers-wait").value.trim();
  const headers = { "Content-Type": "application/json" };
  if (wait !== "") headers.Prefer = `wait=${wait}`;
  const query = server ? `?server=${encodeURIComponent(server)}` : "";
  const response = await api(`/v1/providers/${encodeURIComponent(provider)}${query}`, {
    method: "POST",
    headers,
    body: $("providers-body").value.trim(),
    raw: true,
  });
  const text = await response.text();
  const answer = JSON.parse(text);
  const item = answer.item;
  const entries = [["Event", answer.event]];
  if (item) {
    entries.push(["Item", `${item.kind}: ${item.title}${item.year ? ` (${item.year})` : ""}`]);
    if (item.subtitle) entries.push(["Subtitle", item.subtitle]);
  } else {
    entries.push(["Item", "none (not about a media item)"]);
  }
  entries.push(["Artwork", response.headers.get("Artwork-Status") || ""]);
  const age = response.headers.get("Age");
  if (age !== null) entries.push(["Remembered for (s)", age]);
  facts($("providers-facts"), entries);
  const url = answer.artwork && answer.artwork.image_url;
  $("providers-frame").hidden = !url;
  $("providers-frame").className = `frame ${answer.artwork.image_shape || "square"}`;
  if (url) $("providers-image").src = url;
  else $("providers-image").removeAttribute("src");
  $("providers-answer").textContent = text;
  $("providers-result").hidden = false;
}

$("providers-form").addEventListener("submit", (event) => {
  event.preventDefault();
  busy($("providers-submit"), async () => {
    hideProblem($("providers-problem"));
    try {
      await readProvider();
    } catch (error) {
      $("providers-result").hidden = true;
      showProblem($("providers-problem"), error);
    }
  });
});

// ThumbHash ----------------------------------------------------------------------------------

let placeholderObjectURL = "";

/** Draws the placeholder of `hash`; a malformed hash shows the service's problem. */
async function drawPlaceholder(hash) {
  const response = await api(placeholderURL(hash));
  const blob = await response.blob();
  if (placeholderObjectURL) URL.revokeObjectURL(placeholderObjectURL);
  placeholderObjectURL = URL.createObjectURL(blob);
  const image = $("thumbhash-image");
  image.src = placeholderObjectURL;
  await image.decode();
  return image;
}

$("decode-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const hash = $("decode-hash").value.trim();
  const button = event.submitter || event.target.querySelector("button");
  busy(button, async () => {
    hideProblem($("thumbhash-problem"));
    try {
      const image = await drawPlaceholder(hash);
      $("thumbhash-caption").textContent = `Placeholder of ${hash}`;
      facts($("thumbhash-facts"), [
        ["Drawn at", `${image.naturalWidth} × ${image.naturalHeight} pixels`],
      ]);
      $("thumbhash-result").hidden = false;
    } catch (error) {
      $("thumbhash-result").hidden = true;
      showProblem($("thumbhash-problem"), error);
    }
  });
});

$("hash-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const file = $("hash-file").files[0];
  const button = event.submitter || event.target.querySelector("button");
  busy(button, async () => {
    hideProblem($("thumbhash-problem"));
    try {
      if (!file) {
        throw new Problem(0, { title: "No image", detail: "Choose an image file to hash." });
      }
      const body = new FormData();
      body.append("image", file, file.name);
      const answer = await api("/v1/thumbhash", { method: "POST", body });
      await drawPlaceholder(answer.thumbhash);
      $("decode-hash").value = answer.thumbhash;
      $("thumbhash-caption").textContent = `Placeholder of ${file.name}`;
      const source = answer.source;
      facts($("thumbhash-facts"), [
        ["ThumbHash", element("code", answer.thumbhash, "thumbhash-value")],
        ["Source", `${source.width} × ${source.height} ${source.format}, ${bytesText(source.bytes)}`],
        ["Aspect ratio", String(Math.round(answer.aspect_ratio * 1000) / 1000)],
        ["Average colour", colour(answer.average_color)],
      ]);
      $("thumbhash-result").hidden = false;
    } catch (error) {
      $("thumbhash-result").hidden = true;
      showProblem($("thumbhash-problem"), error);
    }
  });
});
