// Lighthouse with its default (mobile, simulated slow 4G and 4x CPU slowdown) settings, a few runs
// per page. Single runs swing by several points on a busy 2-core machine, so we report medians and,
// for the why of a missed target, the failing audits of the run with the median performance score.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.mjs';
import { onCleanup } from './cleanup.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const CONFIG = { extends: 'lighthouse:default', settings: { onlyCategories: CATEGORIES } };
const TOP_AUDITS = 6;

export async function measureLighthouse(url, paths, runs) {
  // chrome-launcher's own Ctrl-C handler would exit before our servers are stopped, and it starts Chrome
  // detached, so the clean-up kills it.
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'],
    handleSIGINT: false,
  });
  onCleanup(() => chrome.kill());
  try {
    const pages = [];
    const retried = [];
    for (const path of paths) {
      const summaries = [];
      for (let run = 1; run <= runs; run++) {
        console.error(`  lighthouse ${path} (run ${run}/${runs})`);
        summaries.push(await runRetryingOnce(`${url}${path}`, chrome.port, retried));
      }
      pages.push({ path, ...medianOf(summaries) });
    }
    return { version: pages[0]?.version, pages, retried };
  } finally {
    chrome.kill();
  }
}

/**
 * Once in a full run on a busy machine Chrome showed an error page instead of a page the server was
 * serving fine; such a run is repeated once and listed in the report. A second failure stops the run.
 */
async function runRetryingOnce(url, port, retried) {
  try {
    return await runOnce(url, port);
  } catch (error) {
    console.error(`  ${error.message}; trying once more`);
    retried.push(error.message);
    return runOnce(url, port);
  }
}

async function runOnce(url, port) {
  const { lhr } = await lighthouse(url, { port, output: 'json', logLevel: 'error' }, CONFIG);
  if (lhr.runtimeError) {
    const document = lhr.audits['network-requests']?.details?.items?.find((item) => item.resourceType === 'Document');
    const seen = document ? ` (the document: HTTP ${document.statusCode} ${document.url})` : '';
    throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}${seen}`);
  }
  const score = (id) => Math.round(lhr.categories[id].score * 100);
  return {
    version: lhr.lighthouseVersion,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    failing: Object.fromEntries(CATEGORIES.map((id) => [id, failingAudits(lhr, id)])),
    lcpBreakdown: lcpBreakdown(lhr),
  };
}

/** Each figure's own median; the audits come from the run with the median performance score. */
function medianOf(summaries) {
  const median = (key) => summaries.map((s) => s[key]).sort((a, b) => a - b)[Math.floor(summaries.length / 2)];
  const byPerformance = [...summaries].sort((a, b) => a.performance - b.performance);
  const { failing, lcpBreakdown, version } = byPerformance[Math.floor(summaries.length / 2)];
  const figures = ['performance', 'accessibility', 'bestPractices', 'lcp', 'tbt', 'cls'];
  return {
    ...Object.fromEntries(figures.map((key) => [key, median(key)])),
    runs: summaries.map((s) => s.performance),
    failing,
    lcpBreakdown,
    version,
  };
}

/**
 * The audits that cost a category points, heaviest first: weighted audits below 0.9, and the
 * performance insights that estimate a saving on a metric.
 */
function failingAudits(lhr, categoryId) {
  const savings = (audit) => Object.values(audit.metricSavings ?? {}).reduce((sum, ms) => sum + ms, 0);
  return lhr.categories[categoryId].auditRefs
    .map((ref) => ({ weight: ref.weight, audit: lhr.audits[ref.id] }))
    .filter(({ weight, audit }) => audit.score !== null && audit.score < 0.9 && (weight > 0 || savings(audit) > 0))
    .sort((a, b) => b.weight - a.weight || savings(b.audit) - savings(a.audit))
    .slice(0, TOP_AUDITS)
    .map(({ audit }) => `${audit.id}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
}

/** Where the LCP time goes (time to first byte, load delay, render delay…) and which element it is. */
function lcpBreakdown(lhr) {
  const items = lhr.audits['lcp-breakdown-insight']?.details?.items ?? [];
  const parts = items.find((item) => item.type === 'table')?.items ?? [];
  const element = items.find((item) => item.type === 'node');
  const timings = parts.map((part) => `${part.label} ${Math.round(part.duration)} ms`).join(', ');
  return element ? `${timings}; element \`${element.selector}\` ("${element.nodeLabel}")` : timings;
}
