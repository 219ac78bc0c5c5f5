// The HTML report's stylesheet, inlined into every report (no network, no CDN).
#pragma once

namespace feedcheck {

inline constexpr const char* kHtmlReportCss = R"css(
*{box-sizing:border-box}
body{margin:0;background:#eef2f7;color:#0f172a;font:15px/1.5 system-ui,-apple-system,"Segoe UI",
"DejaVu Sans",sans-serif}
main{max-width:1200px;margin:0 auto;padding:24px}
code,pre,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:13px}
h2{font-size:19px;margin:32px 0 12px;color:#1e293b}
h3{font-size:16px;margin:0}
.banner{border-radius:16px;padding:24px 28px;color:#fff;background:#334155;
box-shadow:0 6px 20px rgba(15,23,42,.18)}
.banner.good{background:#166534}.banner.warning{background:#a15c07}.banner.bad{background:#991b1b}
.banner .kicker{text-transform:uppercase;letter-spacing:.08em;font-size:12px;opacity:.85}
.banner h1{margin:4px 0 8px;font-size:30px;line-height:1.2}
.banner p{margin:0;font-size:16px;max-width:900px;opacity:.95}
.banner p.caveat{margin-top:10px;padding:8px 12px;border-radius:8px;background:#fef3c7;
color:#78350f;font-weight:600}
.finding p.caveat{background:#fef3c7;color:#78350f;border-radius:6px;padding:4px 10px}
.banner .meta{margin-top:14px;font-size:13px;opacity:.85}
.banner .meta span{display:inline-block;margin-right:18px}
.card{background:#fff;border-radius:12px;padding:18px 20px;margin:0 0 14px;
box-shadow:0 1px 3px rgba(15,23,42,.08),0 1px 2px rgba(15,23,42,.04)}
.finding{border-left:6px solid #6366f1}
.finding.critical{border-left-color:#b91c1c}.finding.warning{border-left-color:#ca8a04}
.finding header{display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.badge{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.06em;
padding:2px 8px;border-radius:999px;background:#e0e7ff;color:#3730a3}
.badge.critical{background:#fee2e2;color:#991b1b}.badge.warning{background:#fef3c7;color:#854d0e}
.rule-id{color:#64748b;font-size:12px}
.finding p{margin:8px 0}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;padding:5px 10px;border-bottom:1px solid #e2e8f0;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#64748b;font-weight:600}
td.value{font-weight:600;white-space:nowrap}
td.src{color:#64748b;font-size:12.5px}
tr.group td{background:#f1f5f9;font-weight:700;color:#334155}
tr.lv-bad td:first-child{border-left:4px solid #dc2626}
tr.lv-warning td:first-child{border-left:4px solid #d97706}
tr.lv-good td:first-child{border-left:4px solid #16a34a}
tr.lv-unknown td:first-child{border-left:4px solid #94a3b8}
.source{color:#64748b;font-size:12.5px;margin-top:8px}
pre.env{background:#0f172a;color:#e2e8f0;border-radius:10px;padding:14px 16px;overflow:auto;
margin:8px 0}
.charts{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:14px}
.chart-card{margin:0}.chart-card.wide{grid-column:1/-1}
.chart-card figcaption p{margin:2px 0 8px;color:#64748b;font-size:13px}
svg.chart{max-width:100%;height:auto;display:block}
.for-phone{display:none}
svg .tick{font-size:11px;fill:#475569}
svg .axis-label{font-size:12px;fill:#334155}
svg .legend{font-size:12px;fill:#1e293b}
svg .chart-note{font-size:11.5px;fill:#92400e;font-style:italic}
.stat{font-size:22px;font-weight:700;margin:24px 0 4px}
details>summary{cursor:pointer;font-weight:600;color:#334155}
details[open]>summary{margin-bottom:8px}
details.table>summary h3{display:inline;margin:0}
details.table{margin:14px 0}
.note{color:#64748b;font-size:13.5px;margin:8px 0}
.warnings{background:#fffbeb;border:1px solid #fcd34d;border-radius:10px;padding:10px 14px;
color:#78350f;margin-top:14px}
footer{margin-top:32px;color:#64748b;font-size:13px;border-top:1px solid #cbd5e1;padding-top:12px}
footer span{display:inline-block;margin-right:18px}
@media (max-width:1100px){.charts{grid-template-columns:minmax(0,1fr)}}
@media (max-width:640px){
main{padding:12px 8px;overflow-wrap:anywhere}
.card{padding:12px 10px}
.banner{padding:16px}
.banner h1{font-size:24px}
.for-desk{display:none}.for-phone{display:block}
table{display:block;overflow-x:auto}
td{overflow-wrap:anywhere}
th{overflow-wrap:normal;word-break:keep-all}
td.value{white-space:normal}
}
)css";

}  // namespace feedcheck
