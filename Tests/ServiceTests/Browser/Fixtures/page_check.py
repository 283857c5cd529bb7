"""The page for people at SERVICE_URL/, used in Chromium as a person would: a bearer token given
when the service answers 401, a poster made from an uploaded file and one from a URL on a
loopback origin, a phone check of that URL, a file over the size limit (413), and the page at a
phone's width. Prints what the page showed as one JSON object, and saves screenshots.

usage: page_check.py SERVICE_URL TOKEN IMAGE_FILE ORIGIN_PORT SCREENSHOT PHONE_SCREENSHOT"""

import json
import os
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from browser import StaticOrigin, chromium, emit

service, token, image_file, origin_port, screenshot, phone_screenshot = sys.argv[1:7]
with open(image_file, "rb") as f:
    image = f.read()
origin = StaticOrigin("127.0.0.2", {"/poster.jpg": ("image/jpeg", image)}, int(origin_port))
source_url = origin.url + "/poster.jpg"
big = tempfile.NamedTemporaryFile(suffix=".jpg", delete=False)
big.write(b"\xff\xd8\xff" + os.urandom(3_000_000))
big.close()

# Both images of the result decoded, with their natural sizes.
RENDERED = """
const done = arguments[arguments.length - 1];
const images = [document.getElementById('artwork-image'),
                document.getElementById('artwork-placeholder')];
Promise.all(images.map((img) => img.decode()))
  .then(() => done(images.map((img) => ({
    src: img.getAttribute('src'), width: img.naturalWidth, height: img.naturalHeight,
    shown: [img.clientWidth, img.clientHeight],
    frame: img.parentElement.className}))))
  .catch((error) => done({error: String(error)}));
"""

# Every control has a name a screen reader can read.
UNLABELLED = """
return Array.from(document.querySelectorAll('input, select, button, textarea'))
  .filter((el) => el.type !== 'hidden')
  .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                  && !el.textContent.trim())
  .map((el) => el.id || el.outerHTML);
"""


def visible(driver, element_id):
    WebDriverWait(driver, 90).until(
        lambda d: d.find_element(By.ID, element_id).is_displayed())
    return driver.find_element(By.ID, element_id)


def idle(driver, button_id):
    WebDriverWait(driver, 90).until(
        lambda d: d.find_element(By.ID, button_id).get_attribute("aria-busy") is None)


def problem(driver, box_id):
    box = visible(driver, box_id)
    ids = box.find_elements(By.CLASS_NAME, "request-id")
    return {"text": box.text, "request_id": ids[0].text if ids else None}


def make_artwork(driver):
    driver.find_element(By.ID, "artwork-submit").click()
    idle(driver, "artwork-submit")


result = {}
driver = chromium(console=True)
try:
    # Every policy violation recorded as it happens (DevTools-injected, so not itself subject to
    # the page's policy), besides what the console says.
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) => window.cspViolations.push(
            `${event.violatedDirective} ${event.blockedURI}`));
    """})
    driver.get(service + "/")
    result["title"] = driver.title
    result["token_panel_at_first"] = driver.find_element(By.ID, "token-panel").is_displayed()
    result["unlabelled"] = driver.execute_script(UNLABELLED)
    result["default_shape"] = driver.execute_script(
        "return document.querySelector('input[name=shape]:checked').value")

    # The upload, first without a token: 401, the token field, then with it.
    driver.find_element(By.ID, "artwork-file").send_keys(image_file)
    driver.find_element(By.CSS_SELECTOR, "input[name=shape][value=poster]").click()
    make_artwork(driver)
    result["refused"] = problem(driver, "artwork-problem")
    visible(driver, "token-panel")
    result["token_focused"] = driver.switch_to.active_element.get_attribute("id")
    driver.switch_to.active_element.send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "#token-form button[type=submit]").click()
    result["token_in_session"] = driver.execute_script(
        "return sessionStorage.getItem('artwork.token') === arguments[0]"
        " && localStorage.length === 0", token)

    # A poster from a URL on the loopback origin (allowed by ARTWORK_PRIVATE_SOURCES).
    driver.find_element(By.ID, "artwork-url").send_keys(source_url)
    make_artwork(driver)
    visible(driver, "artwork-result")
    result["from_url"] = json.loads(driver.find_element(By.ID, "artwork-fields").text)

    # The upload again, with the token: the state the screenshot shows.
    driver.find_element(By.ID, "artwork-file").send_keys(image_file)
    make_artwork(driver)
    visible(driver, "artwork-result")
    result["rendered"] = driver.execute_async_script(RENDERED)
    result["fields"] = json.loads(driver.find_element(By.ID, "artwork-fields").text)
    result["facts"] = driver.find_element(By.ID, "artwork-facts").text

    # The phone check of the same URL: a phone never loads a private address.
    check = driver.find_element(By.ID, "check-url")
    check.send_keys(source_url)
    driver.find_element(By.CSS_SELECTOR, "#check-form button").click()
    visible(driver, "check-result")
    result["check"] = {
        "summary": driver.find_element(By.ID, "check-summary").text,
        "rules": [{"rule": li.get_attribute("data-rule"), "ok": "good" in li.get_attribute("class"),
                   "skipped": "skipped" in li.get_attribute("class"), "text": li.text}
                  for li in driver.find_elements(By.CSS_SELECTOR, "#check-list li")],
        "advice": [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#check-advice li")],
    }

    # The relay's content with the hosted poster: its hash filled as the service stored it.
    document = driver.find_element(By.ID, "content-document")
    document.send_keys(json.dumps({"template": "media", "progress": 0.5,
                                   "image_url": result["fields"]["image_url"]}))
    driver.find_element(By.ID, "content-wait").send_keys("5")
    driver.find_element(By.ID, "content-submit").click()
    visible(driver, "content-result")
    result["content"] = {
        "facts": driver.find_element(By.ID, "content-facts").text,
        "answer": json.loads(driver.find_element(By.ID, "content-answer").text),
    }
    # An update that switches to a template without an image slot: the artwork is dropped.
    driver.find_element(By.ID, "content-stored").send_keys(
        json.dumps(result["content"]["answer"]))
    document.clear()
    document.send_keys('{"template": "alert", "state": "Done"}')
    driver.find_element(By.ID, "content-submit").click()
    WebDriverWait(driver, 20).until(
        lambda d: "changed" in d.find_element(By.ID, "content-facts").text.lower())
    result["content_update"] = {
        "facts": driver.find_element(By.ID, "content-facts").text,
        "answer": json.loads(driver.find_element(By.ID, "content-answer").text),
    }

    # Sonarr's Test button, pasted into the Providers panel: 200, no artwork, what it is about.
    Select(driver.find_element(By.ID, "providers-name")).select_by_value("sonarr")
    driver.find_element(By.ID, "providers-body").send_keys(json.dumps({
        "eventType": "Test", "instanceName": "Sonarr",
        "series": {"id": 1, "title": "Test Title", "tvdbId": 1234},
        "episodes": [{"episodeNumber": 1, "seasonNumber": 1, "title": "Test title"}]}))
    driver.find_element(By.ID, "providers-submit").click()
    visible(driver, "providers-result")
    result["providers"] = {
        "facts": driver.find_element(By.ID, "providers-facts").text,
        "answer": json.loads(driver.find_element(By.ID, "providers-answer").text),
        "frame_hidden": driver.find_element(By.ID, "providers-frame").get_attribute("hidden")
        is not None,
    }

    # The hash pasted: its placeholder drawn from GET /v1/thumbhash/{hash}.png.
    driver.find_element(By.ID, "decode-hash").send_keys(result["fields"]["image_thumbhash"])
    driver.find_element(By.CSS_SELECTOR, "#decode-form button").click()
    visible(driver, "thumbhash-result")
    result["decoded"] = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const img = document.getElementById('thumbhash-image');
        img.decode().then(() => done([img.naturalWidth, img.naturalHeight]),
                          (error) => done(String(error)));
    """)

    # A file over the limit, hashed: the 413's detail and request id.
    driver.find_element(By.ID, "hash-file").send_keys(big.name)
    driver.find_element(By.CSS_SELECTOR, "#hash-form button").click()
    result["too_large"] = problem(driver, "thumbhash-problem")

    driver.execute_script("window.scrollTo(0, 0)")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1200, height + 120)
    driver.save_screenshot(screenshot)

    # A phone's viewport: nothing wider than the screen.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    result["phone"] = driver.execute_script(
        "return {inner: window.innerWidth, scroll: document.documentElement.scrollWidth}")
    phone_height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": min(phone_height, 2400), "deviceScaleFactor": 1, "mobile": True})
    driver.save_screenshot(phone_screenshot)

    result["violations"] = driver.execute_script("return window.cspViolations")
    result["console"] = [entry["message"] for entry in driver.get_log("browser")]
    emit(result)
finally:
    driver.quit()
    origin.close()
    os.unlink(big.name)
