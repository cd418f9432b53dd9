/** Reports a person reads: text, trace excerpts, Mermaid sequence diagrams. */
export { formatCampaignReport, formatFinding, traceExcerpt, type ReportContext } from './textReport.ts';
export { toMermaid } from './mermaid.ts';
