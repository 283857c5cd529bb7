"""A page on http://127.0.0.2:P calls the service on 127.0.0.1 from Chromium: an upload with a
bearer token (which needs a preflight), a refusal whose problem it must be able to read, and a
hosted image drawn into a canvas and read back. Prints what the page saw as one JSON object.

usage: cors_check.py SERVICE_URL TOKEN IMAGE_FILE HOSTED_IMAGE_URL PAGE_PORT"""

import sys

from browser import StaticOrigin, chromium, emit

service, token, image_file, hosted, page_port = sys.argv[1:6]
page = b"<!doctype html><html><head><title>another origin</title></head><body></body></html>"
with open(image_file, "rb") as f:
    image = f.read()
origin = StaticOrigin("127.0.0.2", {"/": ("text/html", page), "/photo.jpg": ("image/jpeg", image)},
                      int(page_port))

SCRIPT = """
const [service, token, hosted, done] = arguments;
const out = {};
(async () => {
  try {
    const photo = await (await fetch('/photo.jpg')).blob();
    const r = await fetch(service + '/v1/artwork?shape=poster&size=120', {
      method: 'POST', body: photo,
      headers: {'Authorization': 'Bearer ' + token, 'Content-Type': 'image/jpeg'}});
    out.upload = {status: r.status, request_id: r.headers.get('X-Request-Id'),
                  location: r.headers.get('Location'), body: await r.json()};
  } catch (e) { out.upload_error = String(e); }
  try {
    const r = await fetch(service + '/v1/check', {
      method: 'POST', body: '{}',
      headers: {'Authorization': 'Bearer not-the-token', 'Content-Type': 'application/json'}});
    out.refusal = {status: r.status, request_id: r.headers.get('X-Request-Id'),
                   body: await r.json()};
  } catch (e) { out.refusal_error = String(e); }
  try {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.src = hosted;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(img, 0, 0);
    const pixel = context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
    out.canvas = {width: img.naturalWidth, height: img.naturalHeight, pixel: Array.from(pixel)};
  } catch (e) { out.canvas_error = String(e); }
  done(out);
})();
"""

driver = chromium()
try:
    driver.get(origin.url + "/")
    result = driver.execute_async_script(SCRIPT, service, token, hosted)
    result["page_origin"] = origin.url
    emit(result)
finally:
    driver.quit()
    origin.close()
