// The words the site's scripts write, in the reader's language (docs/translation.md, "The words
// JavaScript writes"): /words.js, linked just before this file by base.html ({% js_words %}),
// sets window.parlourWordsTable (games/presentation/js_words.py); no script holds a word of its
// own. say("text_sent", {move: "Draw"}) fills each {name}; counted("zone_matches", 3) picks the
// form for the count (from 1 up) and fills {count}.
(function () {
  "use strict";
  var table = null;

  function words() {
    if (table === null) table = window.parlourWordsTable || {};
    return table;
  }

  function say(key, values) {
    var said = words()[key];
    if (said === undefined) return key;
    Object.keys(values || {}).forEach(function (name) {
      said = said.split("{" + name + "}").join(String(values[name]));
    });
    return said;
  }

  function counted(key, count, values) {
    var filled = Object.assign({ count: count }, values || {});
    return say(key + (count === 1 ? ":one" : ":other"), filled);
  }

  window.parlourWords = { say: say, counted: counted };
})();
