// Measures every text of the HTML report as Chromium lays it out at the window's width, and
// writes what it finds into <pre id="feedcheck-geometry"> as JSON (read back by
// chromium_geometry_test.cpp through --dump-dom). A problem is text outside its chart's SVG
// (clipped by the viewBox), a line or marker drawn past it, two texts of one chart overlapping,
// or a heading wider than its card.
(function () {
  const problems = [];
  const charts = [];
  const tolerance = 1;  // px: anti-aliasing and rounding
  const describe = (el) => (el.textContent || "").trim().slice(0, 60);
  const page = (r) => ({
    x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height});
  document.querySelectorAll("svg.chart").forEach((svg, index) => {
    const box = svg.getBoundingClientRect();
    const label = svg.getAttribute("aria-label") || "chart " + index;
    charts.push(Object.assign({label: label}, page(box)));
    const texts = Array.from(svg.querySelectorAll("text"))
        .map((t) => ({el: t, r: t.getBoundingClientRect()}))
        .filter((t) => t.r.width > 0 && t.r.height > 0);
    texts.forEach((t) => {
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
    height: document.documentElement.scrollHeight,
    texts: document.querySelectorAll("svg.chart text").length,
    charts: charts,
    problems: problems,
  }) + "END-" + "GEOMETRY";
  document.body.appendChild(out);
})();
