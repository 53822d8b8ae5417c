// The QR code on the director's page "Tablets" leads to /geraet/#CODE: the code travels in the
// fragment (never sent to the server, never in a log), is filled in here and sent once. The
// fragment is removed first, so that a reload does not send it again.
(function () {
  "use strict";

  var form = document.getElementById("pairing-form");
  var code = window.location.hash.slice(1);
  if (!form || !/^[A-Za-z0-9-]{8,12}$/.test(code)) return;
  window.history.replaceState(window.history.state, "", window.location.pathname);
  form.querySelector('input[name="code"]').value = code;
  form.requestSubmit ? form.requestSubmit() : form.submit();
})();
