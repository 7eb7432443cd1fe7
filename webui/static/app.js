/* octotable page script: live updates (SSE with polling fallback), table rendering, manual entry. */
(function () {
  "use strict";

  var $ = function (sel, root) { return (root || document).querySelector(sel); };
  var page = document.body.dataset.page;
  var csrf = document.body.dataset.csrf;
  var authorized = document.body.dataset.authorized === "yes";
  var state = JSON.parse($("#initial").textContent);
  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8"];

  /* Build DOM nodes without HTML strings: el("div", {class: "x"}, "text", child). */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "on") { Object.keys(value).forEach(function (ev) { node.addEventListener(ev, value[ev]); }); }
        else if (key === "text") node.textContent = value;
        else node.setAttribute(key, value === true ? "" : value);
      });
    }
    var add = function (child) {
      if (child === null || child === undefined || child === false) return;
      if (Array.isArray(child)) { child.forEach(add); return; }
      node.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
    };
    for (var i = 2; i < arguments.length; i++) add(arguments[i]);
    return node;
  }
  function fill(node, children) { node.replaceChildren.apply(node, flat(children)); }
  function flat(list) { var out = []; (function walk(x) { if (Array.isArray(x)) x.forEach(walk); else if (x) out.push(x); })(list); return out; }
  function name(seat) { return state.players[seat - 1] || "seat " + seat; }
  function possessive(seat) { var n = name(seat); return n + (/s$/i.test(n) ? "’" : "’s"); }

  /* ---- theme ------------------------------------------------------------ */
  var themeButton = $("#theme");
  if (themeButton) themeButton.addEventListener("click", function () {
    var root = document.documentElement;
    var dark = root.dataset.theme === "dark" ||
      (root.dataset.theme === "auto" && window.matchMedia("(prefers-color-scheme: dark)").matches);
    root.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem("octotable-theme", root.dataset.theme);
  });

  /* ---- messages ---------------------------------------------------------- */
  var toastTimer = null;
  function toast(text, ok) {
    var box = $("#toast");
    box.textContent = text;
    box.className = "toast" + (ok ? " ok" : "");
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.hidden = true; }, ok ? 2000 : 6000);
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(data || {})
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        if (!response.ok) {
          if (response.status === 401) { authorized = false; render(); }
          throw new Error(json.error || "the server answered " + response.status);
        }
        return json;
      });
    });
  }
  /* Every change answers the new snapshot: show it at once, the stream confirms it. */
  function send(url, data) {
    return post(url, data).then(function (json) { if (json && json.version) accept(json); return json; })
      .catch(function (error) { toast(error.message); throw error; });
  }
  function sendEvent(event) { return send("/api/event", event); }
  /* What the other page scripts (calibration.js, loaded after this one) share. */
  window.octotable = { toast: toast, post: post };

  /* ---- live connection ----------------------------------------------------- */
  var source = null, pollTimer = null, retryTimer = null;
  function dot(mode, title) {
    var d = $("#live"); if (!d) return;
    d.className = "live-dot " + mode; d.title = title;
  }
  function accept(snapshot) {
    if (!snapshot || snapshot.version === undefined) return;
    var changed = snapshot.version !== state.version;
    state = snapshot;
    if (changed || !rendered) render();
  }
  function resync() {
    return fetch("/api/state", { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (s) { accept(s); if (!source) dot("poll", "updating every few seconds"); })
      .catch(function () { dot("off", "no connection to the table"); });
  }
  function startPolling() { if (!pollTimer) pollTimer = setInterval(resync, 3000); }
  function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
  function connect() {
    if (document.hidden || source || !window.EventSource) { if (!window.EventSource) startPolling(); return; }
    source = new EventSource("/events");
    source.onopen = function () { dot("on", "live"); stopPolling(); };
    source.onmessage = function (message) { try { accept(JSON.parse(message.data)); } catch (e) { /* ignore a torn message */ } };
    source.onerror = function () {
      if (source && source.readyState === EventSource.CLOSED) {
        /* The browser gave up for good (a non-200 answer): poll, and reconnect ourselves. */
        source.close(); source = null;
        dot("poll", "updating every few seconds"); startPolling();
        clearTimeout(retryTimer); retryTimer = setTimeout(connect, 5000);
      } else {
        dot("poll", "reconnecting");
      }
    };
  }
  function disconnect() {
    if (source) { source.close(); source = null; }
    stopPolling(); clearTimeout(retryTimer);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) disconnect(); else { resync(); connect(); }
  });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { resync(); connect(); } });
  window.addEventListener("online", function () { resync(); disconnect(); connect(); });

  /* ---- cards --------------------------------------------------------------- */
  function stdPretty(code) { return code.slice(0, -1) + SUITS[code.slice(-1)]; }
  function isRed(text) { return /[♥♦]$/.test(text) || /^(\+2|-2|−2)$/.test(text); }
  function octoFaces() {
    var deck = (state.options && state.options.deck) || "1:8,2:8,3:8,4:8,5:8,6:8,7:8,+2:6,-2:6,P:6";
    var numbers = [];
    deck.split(",").forEach(function (part) {
      var bits = part.split(":"), face = bits[0].trim(), count = parseInt(bits[1], 10);
      if (/^\d+$/.test(face) && count > 0) numbers.push(parseInt(face, 10));
    });
    return numbers.sort(function (a, b) { return a - b; });
  }
  function miniCard(text, note, won) {
    return el("div", { class: "mini" + (isRed(text) ? " red" : "") + (won ? " won" : "") }, text, note ? el("small", null, note) : null);
  }

  /* ---- table page ---------------------------------------------------------- */
  var rendered = false, shownLastPlay = null, chartSeq = null, chartKey = null;
  var entry = { key: null, cards: [], seat: null, trick: [] };

  function render() {
    rendered = true;
    if (page === "table") renderTable();
    if (page === "camera") renderCamera(state.camera);
  }

  function renderTable() {
    var oc = state.octoplus, ok = state.oktris;
    var round = $("#round"), mode = $("#mode"), chain = $("#chain");
    if (oc) {
      round.textContent = "Round " + oc.round + " · dealer " + name(oc.dealer);
      mode.hidden = true;
      chain.hidden = !oc.chain;
      chain.textContent = "+2 chain ×" + oc.chain;
    } else {
      round.textContent = (ok.tiebreak ? "Tie-break deal " : "Deal ") + ok.deal + " · trick " + Math.min(ok.trick, 8);
      mode.hidden = state.finished;
      mode.textContent = ok.mode === "low" ? "▼ lowest card wins" : "▲ highest card wins";
      mode.className = "chip mode" + (ok.mode === "low" ? " low" : "");
      chain.hidden = true;
    }
    $("#turn").textContent = headline();
    var cam = $("#cam-chip"), demo = /demo/.test(state.camera.message || "");
    cam.textContent = demo ? "demo game" : state.camera.live ? "camera live" : "camera offline";
    cam.className = "chip cam" + (state.camera.live ? " on" : "");
    cam.title = state.camera.message || "";

    var pile = $("#pile");
    pile.hidden = !oc || state.finished;
    if (oc) {
      var top = $("#top-card");
      top.textContent = oc.top === null ? "no card yet" : oc.top;
      top.className = "pile-card" + (oc.top === null ? " empty" : isRed(oc.top) ? "" : " black") +
        (oc.top !== null && String(oc.top).length > 2 ? " word" : "");  // "Pass": a smaller face
      $("#running").textContent = oc.running === null ? "–" : oc.running;
      $("#pile-note").textContent = oc.chain ? "base " + oc.base + " + " + (2 * oc.chain) + " from the chain" :
        (oc.running !== null ? "play up to " + (8 - oc.running) + " to stay ≤ 8" : "");
    }
    var trick = $("#trick");
    trick.hidden = !ok || !ok.last_trick || state.finished;
    if (ok && ok.last_trick) {
      fill(trick, ok.last_trick.cards.map(function (c, i) {
        return miniCard(c, name(i + 1), ok.last_trick.winner === i + 1);
      }));
    }
    var last = $("#last-play");
    if (last.textContent !== state.last_play) {
      last.textContent = state.last_play;
      if (shownLastPlay !== null) { last.classList.remove("flash"); void last.offsetWidth; last.classList.add("flash"); }
      shownLastPlay = state.last_play;
    }
    renderPlayers();
    renderWinner();
    renderFlagged();
    renderControls();
    renderSheet();
    renderHistory();
    renderChart();
  }

  function headline() {
    var oc = state.octoplus, ok = state.oktris;
    if (state.finished) return "Game over";
    if (oc) {
      if (oc.phase === "turn_up") return name(oc.dealer) + " turns up the first card";
      if (oc.phase === "give") return name(state.to_move) + " made 8: gives a card";
      if (oc.phase === "reveal") return "Round over: show your hands";
      if (oc.chain) return possessive(state.to_move) + " turn: +2 chain on " + oc.running;
      return possessive(state.to_move) + " turn";
    }
    return "Trick " + ok.trick + ": everybody plays";
  }

  var shownTotals = null;
  function renderPlayers() {
    var oc = state.octoplus, ok = state.oktris;
    var before = shownTotals;
    shownTotals = state.game_id + ":" + state.totals.join(",");
    var previous = before && before.split(":")[0] === String(state.game_id) ? before.split(":")[1].split(",").map(Number) : null;
    fill($("#players"), state.players.map(function (player, i) {
      var seat = i + 1, meta = [];
      var now = !state.finished && (state.to_move === seat || (oc && oc.phase === "reveal" && oc.reveal_seats.indexOf(seat) >= 0));
      if (oc) {
        meta.push(el("span", { class: "badge" }, oc.hand_sizes[i] + (oc.hand_sizes[i] === 1 ? " card" : " cards")));
        if (oc.owed && oc.owed.seat === seat && oc.owed.cards > 0) meta.push(el("span", { class: "badge hot", title: "cards drawn for going over 8" }, "draws " + oc.owed.cards));
        if (oc.went_out === seat) meta.push(el("span", { class: "badge good" }, "went out"));
      } else {
        meta.push(el("span", { class: "badge" }, "+" + ok.deal_points[i] + " this deal"));
        if (ok.run && ok.run.seat === seat && ok.run.length > 1) meta.push(el("span", { class: "badge hot" }, ok.run.length + " in a row ×" + ok.run.length));
        var won = ok.trick_winners.filter(function (w) { return w === seat; }).length;
        if (won) meta.push(el("span", { class: "badge" }, won + (won === 1 ? " trick" : " tricks")));
      }
      var leader = state.standings[0] && state.standings[0].seat === seat && state.totals.some(function (t) { return t !== 0; });
      return el("article", { class: "player seat-" + seat + (now ? " turn-now" : ""), "data-seat": seat, "aria-current": now ? "true" : null },
        now ? el("span", { class: "arrow" }, state.octoplus && oc.phase === "reveal" ? "show" : "to play") : null,
        el("div", { class: "name" }, player, oc && oc.dealer === seat ? el("span", { class: "dealer", title: "dealer" }, "D") : null,
          leader ? el("span", { title: "leading" }, "★") : null),
        el("div", { class: "total" + (previous && previous[i] !== state.totals[i] ? " flash" : ""), "data-total": seat }, state.totals[i]),
        el("div", { class: "meta" }, meta));
    }));
  }

  function renderWinner() {
    var box = $("#winner");
    box.hidden = !state.finished;
    if (!state.finished) return;
    var title = state.winners.length > 1 ? "♛ " + state.winners.join(" & ") + " share the win" : "♛ " + state.winners[0] + " wins!";
    fill(box, [
      el("h1", null, title),
      el("ol", null, state.standings.map(function (r) { return el("li", null, r.place + ". " + r.name + " — " + r.total); })),
      authorized ? el("button", { class: "btn primary huge", type: "button", on: { click: function () { send("/api/rematch"); } } }, "Rematch: same table") : null
    ]);
  }

  function renderFlagged() {
    var box = $("#flagged");
    box.hidden = !state.flagged.length;
    fill(box, state.flagged.map(function (f) {
      return el("div", { class: "card flag" },
        el("h2", null, "The camera is not sure"),
        el("p", null, f.reason),
        f.image ? el("img", { src: "/flagged/" + f.id + ".jpg", alt: "what the camera saw" }) : null,
        authorized ? el("div", { class: "row" },
          f.candidates.map(function (c) {
            return el("button", { class: "btn primary", type: "button", on: { click: function () { send("/api/flagged/" + f.id, { choice: c.index }); } } }, c.words);
          }),
          el("button", { class: "btn", type: "button", on: { click: function () { send("/api/flagged/" + f.id, { choice: null }); } } }, "Dismiss: I'll enter it")) :
          el("p", { class: "muted" }, "Someone with the PIN can confirm or fix it."));
    }));
  }

  /* ---- manual entry ---------------------------------------------------------- */
  function renderControls() {
    $("#controls").hidden = !authorized;
    $("#unlock").hidden = authorized;
    if (!authorized) return;
    var key = state.game_id + ":" + state.seq;
    if (entry.key !== key) { entry = { key: key, cards: [], seat: null, trick: [] }; }
    var box = $("#entry");
    if (state.finished) fill(box, [el("h3", null, "The game is over."), el("p", { class: "muted" }, "Undo the last play to continue, or start a rematch.")]);
    else if (state.octoplus) fill(box, octoplusEntry());
    else fill(box, oktrisEntry());
    fill($("#adjust-seat"), state.players.map(function (p, i) { return el("option", { value: i + 1 }, p); }));
  }

  function key(label, attrs, onClick) {
    attrs = attrs || {};
    attrs.type = "button";
    attrs.class = "key" + (attrs.class ? " " + attrs.class : "");
    attrs.on = { click: onClick };
    return el("button", attrs, label);
  }

  function octoplusEntry() {
    var oc = state.octoplus, a = oc.allowed, faces = octoFaces();
    if (oc.phase === "turn_up") {
      return [el("h3", null, name(oc.dealer) + " turns up the first card:"),
        el("div", { class: "keypad" },
          faces.map(function (n) { return key(String(n), { "data-card": n }, function () { sendEvent({ type: "turnup", card: String(n) }); }); }),
          key("+2", { class: "special", "data-card": "+2" }, function () { sendEvent({ type: "turnup", card: "+2" }); }),
          key("−2", { class: "special", "data-card": "-2" }, function () { sendEvent({ type: "turnup", card: "-2" }); }),
          key("Pass", { class: "special", "data-card": "P" }, function () { sendEvent({ type: "turnup", card: "P" }); }))];
    }
    if (oc.phase === "give") {
      return [el("h3", null, name(a.seat) + " made 8: who gets a card?"),
        el("div", { class: "seats" }, a.give_to.map(function (to) {
          return el("button", { type: "button", class: "seat-pick seat-" + to, "data-give": to, on: { click: function () { sendEvent({ type: "give", seat: a.seat, to: to }); } } }, name(to));
        }))];
    }
    if (oc.phase === "reveal") {
      if (entry.seat === null || a.reveal_seats.indexOf(entry.seat) < 0) { entry.seat = a.reveal_seats[0]; entry.cards = []; }
      var need = oc.hand_sizes[entry.seat - 1];
      return [el("h3", null, "Round over: the cards left in each hand"),
        el("div", { class: "seats" }, a.reveal_seats.map(function (s) {
          return el("button", { type: "button", class: "seat-pick seat-" + s + (s === entry.seat ? " sel" : ""), on: { click: function () { entry.seat = s; entry.cards = []; renderControls(); } } },
            name(s), el("span", { class: "c" }, oc.hand_sizes[s - 1] + " cards"));
        })),
        picked(entry.cards.join(" "), entry.cards.length + " of " + need),
        el("div", { class: "keypad" },
          faces.map(function (n) { return key(String(n), { "data-card": n, disabled: entry.cards.length >= need }, function () { entry.cards.push(String(n)); renderControls(); }); }),
          ["+2", "-2", "P"].map(function (c) { return key(c === "P" ? "Pass" : c.replace("-", "−"), { class: "special", "data-card": c, disabled: entry.cards.length >= need }, function () { entry.cards.push(c); renderControls(); }); })),
        el("div", { class: "row" },
          el("button", { type: "button", class: "btn", on: { click: function () { entry.cards.pop(); renderControls(); } } }, "⌫"),
          el("button", { type: "button", class: "btn primary", id: "reveal-submit", disabled: entry.cards.length !== need, on: { click: function () { sendEvent({ type: "reveal", seat: entry.seat, cards: entry.cards }); } } }, "Show " + possessive(entry.seat) + " hand ✓"))];
    }
    var start = oc.running, sum = start;
    entry.cards.forEach(function (c) { sum += c === "-2" ? -2 : parseInt(c, 10); });
    var outcome = entry.cards.length ? (sum === 8 ? " → 8, gives a card" : sum > 8 ? " → draws " + (sum - 8) : "") : "";
    var words = entry.cards.length ? start + " " + entry.cards.map(function (c) { return c === "-2" ? "− 2" : "+ " + c; }).join(" ") + " = " + sum + outcome : "tap the cards played, in order";
    var full = entry.cards.length >= a.max_cards;
    var alone = entry.cards.length > 0;
    return [el("h3", null, name(a.seat) + " plays on " + start + (oc.chain ? " (+2 chain)" : "")),
      picked(entry.cards.map(function (c) { return c.replace("-", "−"); }).join(" "), words),
      el("div", { class: "keypad" },
        faces.map(function (n) { return key(String(n), { "data-card": n, disabled: full }, function () { entry.cards.push(String(n)); renderControls(); }); }),
        key("−2", { class: "special", "data-card": "-2", disabled: full || !a.minus2 }, function () { entry.cards.push("-2"); renderControls(); }),
        key("+2", { class: "special", "data-card": "+2", disabled: alone || !a.plus2 }, function () { sendEvent({ type: "play", seat: a.seat, cards: ["+2"] }); }),
        key("Pass", { class: "special", "data-card": "P", disabled: alone || !a.pass }, function () { sendEvent({ type: "play", seat: a.seat, cards: ["P"] }); })),
      el("div", { class: "row" },
        el("button", { type: "button", class: "btn", disabled: !entry.cards.length, on: { click: function () { entry.cards.pop(); renderControls(); } } }, "⌫"),
        a.take_chain ? el("button", { type: "button", class: "btn", on: { click: function () { sendEvent({ type: "take_chain", seat: a.seat }); } } }, "No number: takes the chain") : null,
        state.camera.live && !entry.cards.length ? el("button", { type: "button", class: "btn", id: "camera-done", title: "Space or Enter", on: { click: function () {
          post("/api/turn-done").then(function () { toast("The camera scores the cards it saw", true); }).catch(function (error) { toast(error.message); });
        } } }, "Camera: turn over") : null,
        el("button", { type: "button", class: "btn primary", id: "end-turn", title: "Space or Enter", disabled: !entry.cards.length, on: { click: function () { sendEvent({ type: "play", seat: a.seat, cards: entry.cards }); } } }, "End turn ✓"))];
  }

  function picked(text, note) {
    return el("div", { class: "picked", "aria-live": "polite" }, el("span", null, text), el("span", { class: "sum" }, note));
  }

  function oktrisEntry() {
    var ok = state.oktris, a = ok.allowed, n = state.players.length;
    while (entry.trick.length < n) entry.trick.push(null);
    if (entry.seat === null) entry.seat = 1;
    var used = {};
    entry.trick.forEach(function (c) { if (c) used[c] = true; });
    a.excluded.forEach(function (c) { used[c] = true; });
    var complete = entry.trick.every(Boolean);
    var keys = [];
    ["C", "S", "H", "D"].forEach(function (suit) {
      RANKS.forEach(function (rank) {
        var code = rank + suit;
        keys.push(key(rank + SUITS[suit], { class: suit === "H" || suit === "D" ? "red" : "", "data-card": code, disabled: !!used[code] }, function () {
          entry.trick[entry.seat - 1] = code;
          var next = entry.trick.indexOf(null);
          entry.seat = next >= 0 ? next + 1 : entry.seat;
          renderControls();
        }));
      });
    });
    return [el("h3", null, "Trick " + ok.trick + ": who played what"),
      el("div", { class: "seats" }, state.players.map(function (p, i) {
        var code = entry.trick[i];
        return el("button", { type: "button", class: "seat-pick seat-" + (i + 1) + (entry.seat === i + 1 ? " sel" : ""), "data-seat-pick": i + 1, on: { click: function () { entry.seat = i + 1; renderControls(); } } },
          p, el("span", { class: "c" }, code ? stdPretty(code) : "?"));
      })),
      el("div", { class: "keypad std" }, keys),
      el("div", { class: "row" },
        el("button", { type: "button", class: "btn", on: { click: function () { entry.trick[entry.seat - 1] = null; renderControls(); } } }, "Clear"),
        el("button", { type: "button", class: "btn primary", id: "trick-submit", disabled: !complete, on: { click: function () { sendEvent({ type: "trick", cards: entry.trick }); } } }, "Record trick ✓"))];
  }

  /* ---- sheet, chart, history ---------------------------------------------------- */
  var editing = null;
  function renderSheet() {
    var sheet = state.sheet, label = state.octoplus ? "Round" : "Deal";
    var head = el("thead", null, el("tr", null, el("th", null, label), state.players.map(function (p, i) { return el("th", { class: "seat-" + (i + 1) }, p); })));
    var rows = sheet.rounds.map(function (row, r) {
      if (editing === r) {
        var inputs = row.map(function (cell) { return el("input", { type: "number", value: cell.points, inputmode: "numeric", style: "width:5em" }); });
        return el("tr", null, el("td", null, String(r + 1),
          el("button", { type: "button", class: "edit", on: { click: function () {
            send("/api/edit-round", { round: r + 1, points: inputs.map(function (x) { return parseInt(x.value, 10); }), reason: "edited on the sheet" })
              .then(function () { editing = null; render(); });
          } } }, "save"),
          el("button", { type: "button", class: "edit", on: { click: function () { editing = null; renderSheet(); } } }, "cancel")),
          inputs.map(function (x) { return el("td", null, x); }));
      }
      return el("tr", null,
        el("td", null, String(r + 1), authorized ? el("button", { type: "button", class: "edit", title: "edit this " + label.toLowerCase(), on: { click: function () { editing = r; renderSheet(); } } }, "✎") : null),
        row.map(function (cell) { return el("td", null, String(cell.points), cell.rule ? el("span", { class: "rule" }, cell.rule) : null); }));
    });
    sheet.adjustments.forEach(function (adj) {
      rows.push(el("tr", { class: "muted" }, el("td", null, "±"), state.players.map(function (p, i) {
        return el("td", { title: adj.reason }, adj.seat === i + 1 ? (adj.points > 0 ? "+" : "") + adj.points : "");
      })));
    });
    if (!rows.length) rows.push(el("tr", null, el("td", { colspan: state.players.length + 1, class: "muted" }, "No " + label.toLowerCase() + " scored yet.")));
    var foot = el("tfoot", null, el("tr", null, el("td", null, "Total"), state.totals.map(function (t) { return el("td", null, String(t)); })));
    fill($("#sheet"), [head, el("tbody", null, rows), foot]);
  }

  function renderChart() {
    $("#chart").hidden = !state.sheet.rounds.length && state.totals.every(function (t) { return t === 0; });
    var k = state.game_id + ":" + state.totals.join(",") + ":" + state.sheet.rounds.length;
    if (k === chartKey) return;
    chartKey = k;
    fetch("/chart.svg", { cache: "no-store" }).then(function (r) { return r.text(); })
      .then(function (svg) { $("#chart").innerHTML = svg; }).catch(function () { chartKey = null; });
  }

  function renderHistory() {
    fill($("#history"), state.recent.length ? state.recent.map(function (e) {
      return el("li", { class: e.undone ? "undone" : "" },
        el("span", { class: "seq" }, "#" + e.seq),
        el("span", null, e.words),
        e.source === "scanner" ? el("span", { class: "src chip" }, e.note === "demo" ? "demo" : "camera") : null,
        authorized && e.undoable ? el("button", { type: "button", class: "edit", style: "margin-left:auto", on: { click: function () {
          if (window.confirm("Undo #" + e.seq + ": " + e.words + "?")) send("/api/undo", { target: e.seq });
        } } }, "undo") : null);
    }) : [el("li", { class: "muted" }, "Nothing played yet.")]);
  }

  /* ---- camera page ------------------------------------------------------------------ */
  var previewOn = false;
  function renderCamera(cam) {
    if (!cam) return;
    $("#cam-state").textContent = cam.message || (cam.live ? "live" : "camera offline");
    $("#cam-source").textContent = cam.source || "–";
    $("#cam-fps").textContent = cam.live ? cam.fps : "–";
    $("#cam-still").textContent = cam.still === null ? "–" : cam.still ? "still" : "moving";
    $("#cam-last").textContent = cam.last_reading || "–";
    var img = $("#preview-img");
    if (cam.live && !previewOn) { img.src = "/camera/stream.mjpg"; img.hidden = false; previewOn = true; }
    if (!cam.live && previewOn) { img.removeAttribute("src"); img.hidden = true; previewOn = false; }
    $("#preview-off").hidden = cam.live;
    $("#preview-off").textContent = cam.message || "camera offline";
  }

  /* ---- setup page -------------------------------------------------------------------- */
  function setupPage() {
    var form = $("#new-game"), limits = { octoplus: [2, 8], oktris: [2, 4] };
    var names = state.players.slice(), options = {};
    function game() { return form.querySelector("input[name=game]:checked").value; }
    function drawNames() {
      var lim = limits[game()];
      while (names.length < lim[0]) names.push("Player " + (names.length + 1));
      if (names.length > lim[1]) names = names.slice(0, lim[1]);
      $("#count").textContent = names.length;
      fill($("#names"), names.map(function (n, i) {
        return el("li", null, el("input", { value: n, maxlength: 20, "aria-label": "player " + (i + 1), required: true, on: { input: function (e) { names[i] = e.target.value; } } }));
      }));
    }
    function drawOptions() {
      var g = game();
      fetch("/api/rules/" + g).then(function (r) { return r.json(); }).then(function (json) {
        options = json.options;
        if (g === state.game) Object.keys(options).forEach(function (k) { if (state.options[k] !== undefined) options[k] = state.options[k]; });
        fill($("#options"), Object.keys(options).map(function (k) {
          return el("label", null, k.replace(/_/g, " "), el("input", { value: options[k], name: k, on: { input: function (e) { options[k] = e.target.value; } } }));
        }));
      });
    }
    Array.prototype.forEach.call(form.querySelectorAll("input[name=game]"), function (r) { r.addEventListener("change", function () { drawNames(); drawOptions(); }); });
    $("#more").addEventListener("click", function () { names.push("Player " + (names.length + 1)); drawNames(); });
    $("#fewer").addEventListener("click", function () { names.pop(); drawNames(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      send("/api/new-game", { game: game(), players: names, options: options }).then(function () { location.href = "/"; });
    });
    $("#rematch").addEventListener("click", function () { send("/api/rematch").then(function () { location.href = "/"; }); });
    drawNames(); drawOptions();
  }

  /* ---- wiring ---------------------------------------------------------------------- */
  if (page === "table") {
    $("#pin-form").addEventListener("submit", function (e) {
      e.preventDefault();
      post("/api/login", { pin: $("#pin").value.trim() }).then(function (json) {
        authorized = true; csrf = json.csrf; $("#pin").value = ""; toast("Unlocked: you can enter plays", true); render();
      }).catch(function (error) { toast(error.message); });
    });
    $("#undo").addEventListener("click", function () { send("/api/undo"); });
    // A keyboard at the table: Space or Enter ends the turn being entered, or tells the camera the turn
    // is over.  Typing in a field, or a focused button outside the keypad, keeps its own meaning.
    var shortcut = false;
    document.addEventListener("keydown", function (e) {
      if ((e.key !== " " && e.key !== "Enter") || e.ctrlKey || e.altKey || e.metaKey) return;
      var t = e.target && e.target.closest ? e.target : null;
      if (t && (t.closest("input, textarea, select, form") || (t.closest("button, a") && !t.closest("#entry")))) return;
      var end = $("#end-turn"), camera = $("#camera-done");
      var target = end && !end.disabled ? end : camera && !camera.disabled ? camera : null;
      if (!target) return;
      e.preventDefault();  // a focused keypad key must not also take the press
      shortcut = e.key === " ";
      if (!e.repeat) target.click();
    }, true);
    document.addEventListener("keyup", function (e) {
      if (e.key === " " && shortcut) { e.preventDefault(); shortcut = false; }
    }, true);
    $("#adjust-open").addEventListener("click", function () { $("#adjust").hidden = !$("#adjust").hidden; });
    $("#adjust").addEventListener("submit", function (e) {
      e.preventDefault();
      var f = e.target;
      sendEvent({ type: "adjust", seat: parseInt(f.seat.value, 10), points: parseInt(f.points.value, 10), reason: f.reason.value })
        .then(function () { f.reset(); f.hidden = true; });
    });
  }
  if (page === "setup") setupPage();
  if (page === "camera") setInterval(function () {
    fetch("/api/camera", { cache: "no-store" }).then(function (r) { return r.json(); }).then(renderCamera).catch(function () {});
  }, 2000);
  render();
  connect();
})();
