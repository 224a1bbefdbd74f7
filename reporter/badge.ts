import { escapeMarkup as escape } from './markup';
import type { ConformanceReport } from './report';

const LABEL = 'OMS conformance';

/** badge.svg: "OMS conformance | core 100%", green when conformant and complete, amber when conformant with gaps, red otherwise. */
export function renderBadge(report: ConformanceReport): string {
  const message = `${report.profile} ${report.score.percent}%`;
  const colour = report.verdict === 'not-conformant' ? '#e05d44' : report.verdict === 'inconclusive' ? '#9f9f9f' : report.score.percent === 100 && report.complete ? '#4c1' : '#dfb317';
  const labelWidth = textWidth(LABEL) + 10;
  const messageWidth = textWidth(message) + 10;
  const width = labelWidth + messageWidth;
  const title = `${LABEL}: ${message} (${report.verdict}, suite ${report.suite.version})`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${escape(title)}">
  <title>${escape(title)}</title>
  <linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
  <clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>
  <g clip-path="url(#r)">
    <rect width="${labelWidth}" height="20" fill="#555"/>
    <rect x="${labelWidth}" width="${messageWidth}" height="20" fill="${colour}"/>
    <rect width="${width}" height="20" fill="url(#s)"/>
  </g>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
    <text x="${labelWidth / 2}" y="15" fill="#010101" fill-opacity=".3">${escape(LABEL)}</text>
    <text x="${labelWidth / 2}" y="14">${escape(LABEL)}</text>
    <text x="${labelWidth + messageWidth / 2}" y="15" fill="#010101" fill-opacity=".3">${escape(message)}</text>
    <text x="${labelWidth + messageWidth / 2}" y="14">${escape(message)}</text>
  </g>
</svg>
`;
}

/** Verdana 11px, roughly: wide enough for the text without measuring it. */
function textWidth(text: string): number {
  return Math.ceil([...text].reduce((sum, c) => sum + (/[ il.,:1]/.test(c) ? 4 : /[mwMW%]/.test(c) ? 10 : 7), 0));
}
