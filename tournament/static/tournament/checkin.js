// The fast check-in field on the players page. Every start number typed + Enter is sent in
// the order typed, and the field is emptied at once for the next one: typing quickly never
// loses a number or glues two together, and the focus stays in the field. The answer (a
// message; the player's row, the counts and the undo button as out-of-band parts) is swapped
// in by htmx. Without this script the form posts as usual and the page comes back with the
// field focused.
(() => {
  "use strict";
  const form = document.getElementById("quick-checkin");
  if (!form || !window.fetch || !window.FormData || !window.htmx) return;
  const field = form.elements.number;
  const result = document.getElementById("quick-result");
  let queue = Promise.resolve();

  function send(body) {
    return fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "HX-Request": "true" },
    })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then((html) => window.htmx.swap(result, html, { swapStyle: "innerHTML" }))
      .catch(() => {
        result.textContent = "";
        const message = document.createElement("span");
        message.className = "error";
        message.setAttribute("role", "alert");
        message.textContent = form.dataset.offline;
        result.appendChild(message);
      });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = new FormData(form);
    field.value = "";
    field.focus();
    queue = queue.then(() => send(body));
  });
})();
