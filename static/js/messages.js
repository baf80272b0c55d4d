// The notices under the header (Django's messages, base.html) go away when their close button is
// pressed (a real button: reachable and pressed from the keyboard), or when a page such as the
// table says they have been acted on (window.parlourMessagesDismiss, used by table.js).
(function () {
  "use strict";
  function dismiss(item) {
    var list = item.parentNode;
    item.remove();
    if (list && !list.querySelector(".message")) list.remove();
  }
  window.parlourMessagesDismiss = function () {
    var list = document.getElementById("messages");
    if (list) list.remove();
  };
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest(".message-close") : null;
    if (!button) return;
    var item = button.closest(".message");
    if (!item) return;
    var hadFocus = document.activeElement === button;
    dismiss(item);
    if (!hadFocus) return;
    // Keep a keyboard user's place: the next notice's button, else the page's content.
    var next = document.querySelector("#messages .message-close");
    var main = document.getElementById("main");
    if (next) next.focus();
    else if (main) {
      main.setAttribute("tabindex", "-1");
      main.focus({ preventScroll: true });
    }
  });
})();
