// The keeper's outbox on the network: its requests to the table link (`action`, the keeper
// page's own address) and what it reads from the server's answers.

export const TIMEOUT = 10000; // a phone "online" to a dead router would otherwise wait for minutes

function csrfToken() {
  try {
    return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
  } catch {
    return "";
  }
}

// Every request of the outbox gives up after TIMEOUT, answer body included: a request
// that hangs would keep the outbox sending and stall the queue. Resolves with
// { status, html, url (HX-Replace-Url) }; rejects when no answer came.
export function request(action, options) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT);
  return fetch(action, Object.assign({
    credentials: "same-origin",
    cache: "no-store",
    signal: controller.signal,
  }, options)).then((response) => response.text().then((html) => ({
    status: response.status, html: html, url: response.headers.get("HX-Replace-Url"),
  }))).finally(() => clearTimeout(timer));
}

// The headers of htmx's requests with hx-target="#sheet": the server answers with the
// sheet partial.
export function sheetHeaders() {
  return {
    "HX-Request": "true",
    "HX-Target": "sheet",
    "HX-Current-URL": window.location.href,
  };
}

// The sheet as the server has it now.
export function fetchSheet(action) {
  return request(action, { headers: sheetHeaders() });
}

// A lost CSRF cookie (browser data cleared, the phone restarted the browser): the page,
// fetched once, sets a fresh cookie and carries the matching token.
function renewToken(action) {
  return request(action, {}).then((answer) => {
    const page = new DOMParser().parseFromString(answer.html, "text/html");
    const headers = page.body && page.body.getAttribute("hx-headers");
    if (headers) document.body.setAttribute("hx-headers", headers);
  });
}

// One queued game, as its form would post it.
export function post(action, item, renewed) {
  const body = new URLSearchParams();
  item.fields.forEach((pair) => body.append(pair[0], pair[1]));
  const headers = Object.assign({ "X-CSRFToken": csrfToken() }, sheetHeaders());
  return request(action, { method: "POST", body: body, headers: headers }).then((answer) => {
    if (answer.status === 403 && !renewed) {
      return renewToken(action).then(() => post(action, item, true));
    }
    return answer;
  });
}

// The server's own words, for the strip: the conflict's message or the first error.
export function messageOf(html) {
  const answer = new DOMParser().parseFromString(html, "text/html");
  const found = ["#conflict > p", "#form-errors", "#notice", ".error"]
    .map((selector) => answer.querySelector(selector))
    .filter(Boolean)[0];
  return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
}

// What the sheet holds of a conflicting game: "stored" (somebody else's version of it is on
// the list) or "removed" (it is not there any more); see _conflict.html.
export function theirsOf(html) {
  const box = new DOMParser().parseFromString(html, "text/html").querySelector("#conflict");
  return (box && box.dataset.theirs) || "";
}
