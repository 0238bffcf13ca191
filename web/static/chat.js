// The chat page's script: posts a message as JSON and shows the reply as
// the server streams it (server-sent events: a "status" event at once,
// then "reply" or "error"). Without it the form posts and the page reloads.
(function () {
  "use strict";
  var form = document.getElementById("chat-form");
  var meta = document.querySelector('meta[name="csrf-token"]');
  if (!form || !meta || !window.fetch || !window.TextDecoder) return;
  var box = document.getElementById("chat-message");
  var turns = document.getElementById("chat-turns");
  var convField = document.getElementById("conversation-id");
  var errorBox = document.getElementById("chat-error");
  var left = document.getElementById("chat-left");
  var send = document.getElementById("chat-send");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  function showError(msg) {
    errorBox.querySelector("p").textContent = msg;
    errorBox.hidden = false;
  }
  function showLeft(n) {
    if (typeof n !== "number" || n < 0) return;
    left.textContent = "You can send " + n + " more message" + (n === 1 ? "" : "s") + " today.";
  }
  function renderReply(div, reply) {
    div.textContent = "";
    div.appendChild(el("p", "answer-text", reply.answer));
    (reply.references || []).forEach(function (r) {
      var q = el("blockquote", "verse");
      q.appendChild(el("p", "", r.text));
      var f = el("footer"), cite = el("cite"), a = el("a", "", r.reference);
      a.href = r.readerUrl;
      cite.appendChild(a);
      f.appendChild(cite);
      f.appendChild(document.createTextNode(" "));
      f.appendChild(el("span", "hint", "(KJV)"));
      q.appendChild(f);
      div.appendChild(q);
    });
    (reply.words || []).forEach(function (w) {
      var p = el("p", "hint word"), n = el("a", "", "Strong's " + w.strongs);
      n.href = "/words/" + encodeURIComponent(w.strongs);
      p.appendChild(n);
      p.appendChild(document.createTextNode(": "));
      var l = el("span", "", w.lemma);
      l.lang = w.language === "greek" ? "grc" : "hbo";
      p.appendChild(l);
      p.appendChild(document.createTextNode(" "));
      p.appendChild(el("i", "", w.transliteration));
      p.appendChild(document.createTextNode((w.definition ? ", " + w.definition : "") + "."));
      div.appendChild(p);
    });
    if (reply.topics && reply.topics.length) {
      var p = el("p", "hint", "Topics: ");
      reply.topics.forEach(function (t, i) {
        if (i) p.appendChild(document.createTextNode(", "));
        var a = el("a", "", t.title);
        a.href = t.url;
        p.appendChild(a);
      });
      div.appendChild(p);
    }
    var rp = el("p", "hint"), ra = el("a", "", "Report this answer");
    ra.href = reply.reportUrl;
    rp.appendChild(ra);
    div.appendChild(rp);
  }
  // events reads server-sent events from a fetch response body.
  function events(res, onEvent) {
    var reader = res.body.getReader(), dec = new TextDecoder(), buf = "";
    function pump() {
      return reader.read().then(function (r) {
        if (r.done) return;
        buf += dec.decode(r.value, { stream: true });
        var i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          var block = buf.slice(0, i), name = "message", data = "";
          buf = buf.slice(i + 2);
          block.split("\n").forEach(function (line) {
            if (line.indexOf("event: ") === 0) name = line.slice(7);
            else if (line.indexOf("data: ") === 0) data += line.slice(6);
          });
          onEvent(name, JSON.parse(data));
        }
        return pump();
      });
    }
    return pump();
  }

  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var message = box.value.trim();
    if (!message) return;
    errorBox.hidden = true;
    var li = el("li", "chat-turn");
    li.appendChild(el("p", "chat-question", message));
    var reply = el("div", "chat-reply");
    reply.appendChild(el("p", "chat-thinking", "Sending…"));
    li.appendChild(reply);
    turns.appendChild(li);
    send.disabled = true;
    var body = { message: message };
    if (convField.value) body.conversationId = convField.value;
    var done = false;
    function fail(msg) {
      li.remove();
      box.value = message;
      showError(msg);
    }
    fetch("/chat/messages", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "text/event-stream", "X-CSRF-Token": meta.content },
      body: JSON.stringify(body)
    }).then(function (res) {
      if (!res.ok) {
        return res.json().then(function (e) { fail(e.error.message); }, function () { fail("The message could not be sent (" + res.status + "). Try again."); });
      }
      box.value = "";
      return events(res, function (name, data) {
        if (name === "status") {
          reply.querySelector(".chat-thinking").textContent = "Looking in Scripture…";
        } else if (name === "reply") {
          done = true;
          renderReply(reply, data.reply);
          showLeft(data.remaining);
          if (convField.value !== data.conversationId) {
            convField.value = data.conversationId;
            history.replaceState(null, "", "/chat/" + data.conversationId);
          }
        } else if (name === "error") {
          done = true;
          fail(data.error.message);
        }
      }).then(function () {
        if (!done) fail("The reply was cut off. Reload the page to see whether it arrived.");
      });
    }).catch(function () {
      fail("The message could not be sent. Check the connection and try again.");
    }).then(function () {
      send.disabled = false;
      box.focus();
    });
  });
})();
