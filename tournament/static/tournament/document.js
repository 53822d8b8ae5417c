// The page of a document being made (templates/tournament/document.html): asks every second
// and a half whether it is ready, then fetches the file (the same address serves it).
(function () {
  "use strict";
  var box = document.getElementById("document");
  if (!box) return;
  var fetched = false;

  function show(status) {
    box.dataset.status = status;
    box.querySelectorAll("[data-when]").forEach(function (part) {
      part.hidden = part.dataset.when.split(" ").indexOf(status) < 0;
    });
  }

  function poll() {
    fetch(box.dataset.poll, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : { status: "queued" }; })
      .then(function (state) {
        if (state.status === "ready") {
          show("ready");
          if (!fetched) {
            fetched = true;
            window.location.href = box.dataset.file;
          }
        } else if (state.status === "failed" || state.status === "gone") {
          window.location.reload(); // the page says what went wrong, or asks again
        } else {
          show(state.status);
          window.setTimeout(poll, 1500);
        }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }

  if (box.dataset.status !== "failed") window.setTimeout(poll, 1000);
})();
