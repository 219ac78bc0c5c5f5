// Measures every text of the HTML report as Chromium lays it out at the window's width (its
// box and the size it is drawn at), the page's own width, the chart markers shown and where the
// charts sit against the findings, and writes what it finds into <pre id="feedcheck-geometry">
// as JSON (read back by chromium_geometry_test.cpp through --dump-dom). A problem is text outside its chart's SVG
// (clipped by the viewBox), a line or marker drawn past it, two texts of one chart overlapping,
// or a heading wider than its card.
(function () {
  const problems = [];
  const charts = [];
  const tolerance = 1;  // px: anti-aliasing and rounding
  const describe = (el) => (el.textContent || "").trim().slice(0, 60);
  const page = (r) => ({
    x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height});
  let smallestFontPx = Infinity, smallestText = "";
  const markers = [];
  document.querySelectorAll("svg.chart").forEach((svg, index) => {
    const box = svg.getBoundingClientRect();
    // A chart drawn for the other screen size is hidden (display:none): not on the page.
    if (box.width === 0 || box.height === 0) return;
    svg.querySelectorAll("[data-marker]").forEach((el) => markers.push(el.getAttribute("data-marker")));
    if (svg.hasAttribute("data-marker")) markers.push(svg.getAttribute("data-marker"));
    const label = svg.getAttribute("aria-label") || "chart " + index;
    charts.push(Object.assign({label: label}, page(box)));
    const texts = Array.from(svg.querySelectorAll("text"))
        .map((t) => ({el: t, r: t.getBoundingClientRect()}))
        .filter((t) => t.r.width > 0 && t.r.height > 0);
    texts.forEach((t) => {
      // The size the text is drawn at on screen: its CSS size in user units times the SVG's scale.
      const m = t.el.getScreenCTM();
      const px = parseFloat(getComputedStyle(t.el).fontSize) * Math.hypot(m.a, m.b);
      if (px < smallestFontPx) {
        smallestFontPx = px;
        smallestText = describe(t.el);
      }
      if (t.r.left < box.left - tolerance || t.r.right > box.right + tolerance ||
          t.r.top < box.top - tolerance || t.r.bottom > box.bottom + tolerance)
        problems.push({kind: "clipped", chart: label, text: describe(t.el),
                       text_box: page(t.r), chart_box: page(box)});
    });
    // Lines and markers drawn past the plot (a point beyond the last tick) are clipped too.
    svg.querySelectorAll("polyline, circle").forEach((el) => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;
      if (r.left < box.left - tolerance || r.right > box.right + tolerance ||
          r.top < box.top - tolerance || r.bottom > box.bottom + tolerance)
        problems.push({kind: "clipped", chart: label, text: el.tagName, text_box: page(r),
                       chart_box: page(box)});
    });
    for (let i = 0; i < texts.length; ++i) {
      for (let j = i + 1; j < texts.length; ++j) {
        const a = texts[i].r, b = texts[j].r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > tolerance && h > tolerance)
          problems.push({kind: "overlap", chart: label, text: describe(texts[i].el),
                         other: describe(texts[j].el), overlap_px: [w, h]});
      }
    }
  });
  // Headings and captions stay inside their card.
  document.querySelectorAll(".card h3, .card figcaption p, .banner h1, .banner p").forEach((el) => {
    const card = el.closest(".card, .banner");
    if (!card) return;
    const r = el.getBoundingClientRect(), c = card.getBoundingClientRect();
    if (r.right > c.right + tolerance || r.left < c.left - tolerance || el.scrollWidth > el.clientWidth + tolerance)
      problems.push({kind: "clipped", chart: "card", text: describe(el), text_box: page(r),
                     chart_box: page(c)});
  });
  const out = document.createElement("pre");
  out.id = "feedcheck-geometry";
  // The markers are built, so the script's own text (also in the dumped DOM) never holds them.
  out.textContent = "FEEDCHECK-" + "GEOMETRY" + JSON.stringify({
    width: document.documentElement.clientWidth,
    // Wider than the window means the page scrolls sideways: something does not fit.
    scroll_width: document.documentElement.scrollWidth,
    smallest_font_px: smallestFontPx === Infinity ? 0 : smallestFontPx,
    smallest_text: smallestText,
    markers: markers,
    figures: Array.from(document.querySelectorAll("figure[data-chart]")).map((f) => ({
      chart: f.getAttribute("data-chart"), y: f.getBoundingClientRect().top + window.scrollY})),
    findings_y: (() => {
      const h = Array.from(document.querySelectorAll("h2")).find((e) => e.textContent === "Findings");
      return h ? h.getBoundingClientRect().top + window.scrollY : -1;
    })(),
    // Where the answer stands: the first line naming what storage cost (a fleet's page).
    answer_y: (() => {
      const b = Array.from(document.querySelectorAll("b")).find((e) => e.textContent === "Storage cost:");
      return b ? b.getBoundingClientRect().top + window.scrollY : -1;
    })(),
    // The verdict (the banner's heading) and the action (the first "Fix:" or "Fix first:"
    // line): where each ends on the page, -1 when there is none.
    verdict_bottom: (() => {
      const h = document.querySelector(".banner h1");
      return h ? h.getBoundingClientRect().bottom + window.scrollY : -1;
    })(),
    action_bottom: (() => {
      const b = Array.from(document.querySelectorAll("b")).find(
          (e) => e.textContent === "Fix:" || e.textContent === "Fix first:");
      const line = b ? b.closest("p") || b : null;
      return line ? line.getBoundingClientRect().bottom + window.scrollY : -1;
    })(),
    action_box: (() => {
      const b = Array.from(document.querySelectorAll("b")).find(
          (e) => e.textContent === "Fix:" || e.textContent === "Fix first:");
      const line = b ? b.closest("p") || b : null;
      return line ? page(line.getBoundingClientRect()) : null;
    })(),
    height: document.documentElement.scrollHeight,
    texts: document.querySelectorAll("svg.chart text").length,
    charts: charts,
    problems: problems,
  }) + "END-" + "GEOMETRY";
  // In an iframe (a window narrower than Chromium allows), the result goes to the page that
  // --dump-dom prints.
  (window.parent !== window ? window.parent.document : document).body.appendChild(out);
})();
