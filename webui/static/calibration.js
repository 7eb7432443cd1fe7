/* octotable calibration wizard: camera check, play area corners, seat markers and guided deck capture. */
(function () {
  "use strict";

  var $ = function (sel) { return document.querySelector(sel); };
  var SVG = "http://www.w3.org/2000/svg";
  var wizard = JSON.parse($("#calibration-initial").textContent);
  var cal = wizard.calibration;
  var frame = { width: cal.width, height: cal.height };
  var corners = cal.corners ? cal.corners.map(function (p) { return p.slice(); }) : null;
  var seats = { players: cal.seats.players, centre: cal.seats.centre.slice(), angles: cal.seats.angles.slice() };
  var capturing = false;

  /* The page script (app.js, loaded first) shares its toast and its CSRF-carrying POST. */
  var toast = window.octotable.toast, post = window.octotable.post;

  function show(node, text, good) {
    node.textContent = text;
    node.className = "cal-result " + (good === undefined ? "" : good ? "good" : "bad");
  }

  /* ---- the picture ---------------------------------------------------------- */
  function loadSnapshot() {
    return fetch("/calibrate/snapshot.jpg", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("no camera picture");
      var width = parseInt(r.headers.get("X-Frame-Width"), 10) || frame.width;
      var height = parseInt(r.headers.get("X-Frame-Height"), 10) || frame.height;
      if (width !== cal.width || height !== cal.height) rescale(width / cal.width, height / cal.height);
      frame.width = width; frame.height = height;
      return r.blob();
    }).then(function (blob) {
      var url = URL.createObjectURL(blob);
      ["#cal-table-img", "#cal-seats-img"].forEach(function (sel) { $(sel).src = url; });
      $("#cal-table-off").hidden = true;
      drawTable();
      drawSeats();
    }).catch(function () {
      $("#cal-table-off").hidden = false;
      drawTable();
      drawSeats();
    });
  }

  /* The calibration was made for frames of another size: show its points where they fall now
     (saving a step records the new size). */
  function rescale(sx, sy) {
    if (corners) corners = corners.map(function (p) { return [p[0] * sx, p[1] * sy]; });
    seats.centre = [seats.centre[0] * sx, seats.centre[1] * sy];
    cal.width = Math.round(cal.width * sx); cal.height = Math.round(cal.height * sy);
  }

  function adopt(calibration) {
    cal = calibration;
    frame.width = cal.width; frame.height = cal.height;
    corners = cal.corners ? cal.corners.map(function (p) { return p.slice(); }) : null;
    seats = { players: cal.seats.players, centre: cal.seats.centre.slice(), angles: cal.seats.angles.slice() };
  }

  function node(tag, attrs, parent) {
    var el = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(el);
    return el;
  }

  function prepare(svg) {
    svg.setAttribute("viewBox", "0 0 " + frame.width + " " + frame.height);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.replaceChildren();
  }

  function svgPoint(svg, event) {
    var pt = svg.createSVGPoint();
    pt.x = event.clientX; pt.y = event.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [Math.max(0, Math.min(frame.width, p.x)), Math.max(0, Math.min(frame.height, p.y))];
  }

  function draggable(svg, handle, onMove) {
    handle.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      var move = function (e) { onMove(svgPoint(svg, e)); };
      var up = function () {
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
        handle.removeEventListener("pointercancel", up);
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
      handle.addEventListener("pointercancel", up);
    });
  }

  /* ---- 1 camera ------------------------------------------------------------- */
  $("#cal-check").addEventListener("click", function () {
    post("/calibrate/api/camera").then(function (r) {
      adopt(r.calibration);
      show($("#cal-quality"), (r.ok ? "Good for reading cards: " : "Not good yet: ") + r.summary, r.ok);
      $("#cal-advice").replaceChildren.apply($("#cal-advice"), r.advice.map(function (a) {
        var li = document.createElement("li"); li.textContent = a; return li;
      }));
      loadSnapshot();
    }).catch(function (e) { show($("#cal-quality"), e.message, false); });
  });

  /* ---- 2 table -------------------------------------------------------------- */
  function defaultCorners() {
    var w = frame.width, h = frame.height;
    return [[0.1 * w, 0.1 * h], [0.9 * w, 0.1 * h], [0.9 * w, 0.9 * h], [0.1 * w, 0.9 * h]];
  }

  function drawTable() {
    var svg = $("#cal-table-svg");
    prepare(svg);
    if (!corners) corners = defaultCorners();
    var area = node("polygon", { class: "area", points: corners.map(function (p) { return p.join(","); }).join(" ") }, svg);
    var r = Math.max(frame.width, frame.height) / 45;
    corners.forEach(function (p, i) {
      var handle = node("circle", { class: "handle", cx: p[0], cy: p[1], r: r, "data-corner": i }, svg);
      draggable(svg, handle, function (q) {
        corners[i] = q;
        handle.setAttribute("cx", q[0]); handle.setAttribute("cy", q[1]);
        area.setAttribute("points", corners.map(function (c) { return c.join(","); }).join(" "));
      });
    });
  }

  function cardText(size) {
    return size ? "Card: " + size[0].toFixed(1) + " × " + size[1].toFixed(1) + " px" : "";
  }

  $("#cal-detect").addEventListener("click", function () {
    post("/calibrate/api/table/detect").then(function (r) {
      frame.width = r.width; frame.height = r.height;
      corners = r.corners;
      drawTable();
      show($("#cal-card"), r.card_size_px ? "Play area found. " + cardText(r.card_size_px) : "Play area found. " + r.card_problem, !!r.card_size_px);
    }).catch(function (e) { show($("#cal-card"), e.message, false); });
  });

  $("#cal-save-table").addEventListener("click", function () {
    post("/calibrate/api/table", { corners: corners, measure: true }).then(function (r) {
      adopt(r.calibration);
      drawTable();
      drawSeats();
      show($("#cal-card"), "Saved. " + cardText(cal.card_size_px) + " · top-down view " + r.view[0] + " × " + r.view[1], true);
      $("#cal-topdown").src = "/calibrate/top-down.jpg?t=" + Date.now();
      $("#cal-topdown-box").hidden = false;
      toast("Play area saved", true);
    }).catch(function (e) { show($("#cal-card"), e.message, false); });
  });

  /* ---- 3 seats -------------------------------------------------------------- */
  function direction(angle) {
    var t = angle * Math.PI / 180;
    return [-Math.sin(t), Math.cos(t)];
  }

  /* Draw the seat markers afresh (a new player count), then move them in place while dragging. */
  function drawSeats() {
    var svg = $("#cal-seats-svg");
    prepare(svg);
    var r = Math.max(frame.width, frame.height) / 34;
    seats.angles.forEach(function (angle, i) {
      node("line", { class: "ray", "data-ray": i + 1 }, svg);
    });
    var centre = node("circle", { class: "centre", r: r / 2 }, svg);
    seats.angles.forEach(function (angle, i) {
      var marker = node("circle", { class: "seat", r: r, fill: "var(--s" + (i + 1) + ")", "data-seat": i + 1 }, svg);
      var label = node("text", { class: "seat-label", "data-label": i + 1, "font-size": r }, svg);
      label.textContent = String(i + 1);
      draggable(svg, marker, function (q) {
        var dx = q[0] - seats.centre[0], dy = q[1] - seats.centre[1];
        if (dx === 0 && dy === 0) return;
        seats.angles[i] = ((Math.atan2(-dx, dy) * 180 / Math.PI) + 360) % 360;
        placeSeats();
      });
    });
    draggable(svg, centre, function (q) { seats.centre = q; placeSeats(); });
    $("#cal-players").value = String(seats.players);
    placeSeats();
  }

  function placeSeats() {
    var svg = $("#cal-seats-svg");
    var reach = 0.38 * Math.min(frame.width, frame.height);
    var c = seats.centre;
    var centre = svg.querySelector("circle.centre");
    centre.setAttribute("cx", c[0]); centre.setAttribute("cy", c[1]);
    seats.angles.forEach(function (angle, i) {
      var d = direction(angle);
      var x = c[0] + d[0] * reach, y = c[1] + d[1] * reach;
      var ray = svg.querySelector("[data-ray='" + (i + 1) + "']");
      ray.setAttribute("x1", c[0]); ray.setAttribute("y1", c[1]); ray.setAttribute("x2", x); ray.setAttribute("y2", y);
      var marker = svg.querySelector("[data-seat='" + (i + 1) + "']");
      marker.setAttribute("cx", x); marker.setAttribute("cy", y);
      var label = svg.querySelector("[data-label='" + (i + 1) + "']");
      label.setAttribute("x", x); label.setAttribute("y", y);
    });
  }

  function equalAngles(n) {
    var out = [];
    for (var k = 0; k < n; k++) out.push(360 * k / n);
    return out;
  }

  function resetSeats() {
    seats.angles = equalAngles(seats.players);
    drawSeats();
  }
  $("#cal-players").addEventListener("change", function () {
    seats.players = parseInt($("#cal-players").value, 10);
    resetSeats();
  });
  $("#cal-seats-reset").addEventListener("click", resetSeats);
  $("#cal-save-seats").addEventListener("click", function () {
    post("/calibrate/api/seats", { players: seats.players, centre: seats.centre, angles: seats.angles }).then(function (r) {
      cal = r.calibration;
      show($("#cal-seats-result"), "Saved " + cal.seats.players + " seats: " + cal.seats.angles.map(function (a) { return Math.round(a) + "°"; }).join(", "), true);
      toast("Seats saved", true);
    }).catch(function (e) { show($("#cal-seats-result"), e.message, false); });
  });

  /* ---- 4 deck --------------------------------------------------------------- */
  function renderCapture(c) {
    $("#cal-capturing").hidden = !c.running;
    if (c.running) {
      $("#cal-progress").value = c.fraction;
      $("#cal-ask-card").textContent = c.card || "–";
      $("#cal-ask-count").textContent = c.card ? "(card " + (c.index + 1) + " of " + c.cards + ", capture " + Math.min(c.captures_of_card + 1, c.captures_per_card) + " of " + c.captures_per_card + ")" : "";
      $("#cal-step").textContent = c.finished ? "Every card is captured: press Finish." : c.advice;
    }
    if (c.report) renderReport(c.report);
  }

  function renderReport(report) {
    $("#cal-report").hidden = false;
    show($("#cal-report-summary"), (100 * report.accuracy).toFixed(1) + "% of the captures read right; templates saved in " + report.templates, report.ok);
    $("#cal-alike").replaceChildren.apply($("#cal-alike"), report.alike.map(function (p) {
      var li = document.createElement("li");
      li.textContent = p[0] + " and " + p[1] + " look too alike (lead " + p[2].toFixed(2) + "): capture them again in better light";
      return li;
    }).concat(report.missing.length ? [Object.assign(document.createElement("li"), { textContent: "No template for " + report.missing.join(" ") })] : []));
    $("#cal-report-rows").replaceChildren.apply($("#cal-report-rows"), report.cards.map(function (c) {
      var tr = document.createElement("tr");
      if (c.correct < c.captures) tr.className = "weak";
      [c.card, c.confidence.toFixed(2), c.correct + "/" + c.captures, c.runner_up ? c.runner_up + " (" + c.margin.toFixed(2) + ")" : "–"].forEach(function (v) {
        var td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
      });
      return tr;
    }));
  }

  var previewUrl = null, ticks = 0;
  function preview() {
    fetch("/calibrate/snapshot.jpg", { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (!r.ok) throw new Error("no camera picture");
      return r.blob();
    }).then(function (blob) {
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      previewUrl = URL.createObjectURL(blob);
      $("#cal-capture-img").src = previewUrl;
    }).catch(function () {});
  }

  function tick() {
    if (!capturing) return;
    if (ticks++ % 3 === 0) preview();
    post("/calibrate/api/capture/step").then(function (c) {
      renderCapture(c);
      if (c.running && !c.finished) setTimeout(tick, 300);
      else capturing = false;
    }).catch(function (e) {
      $("#cal-step").textContent = e.message;
      setTimeout(tick, 1000);
    });
  }

  $("#cal-start").addEventListener("click", function () {
    post("/calibrate/api/capture/start", { deck: $("#cal-deck-kind").value, captures: parseInt($("#cal-captures").value, 10) }).then(function (c) {
      $("#cal-report").hidden = true;
      renderCapture(c);
      capturing = true;
      tick();
    }).catch(function (e) { toast(e.message, false); });
  });
  $("#cal-skip").addEventListener("click", function () {
    post("/calibrate/api/capture/skip").then(renderCapture).catch(function (e) { toast(e.message, false); });
  });
  $("#cal-finish").addEventListener("click", function () {
    capturing = false;
    post("/calibrate/api/capture/finish").then(function (r) {
      renderCapture(r);
      toast("Templates saved", true);
    }).catch(function (e) { toast(e.message, false); });
  });

  if (wizard.capture.running) { renderCapture(wizard.capture); capturing = true; tick(); }
  else if (wizard.capture.report) renderReport(wizard.capture.report);
  loadSnapshot();
})();
