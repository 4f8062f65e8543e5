import type { FastifyError, FastifyInstance } from 'fastify';

/** How deep a report may nest: real ones are two or three levels (the report, its body, an array of them). */
export const CSP_REPORT_MAX_DEPTH = 5;
/** How large a report body may be (a real one is well under a kilobyte or two). */
export const CSP_REPORT_MAX_BYTES = 16 * 1024;

/** CSP violation reports, kept in memory: a count and the newest few (enough to notice a broken policy). */
export class CspReports {
  count = 0;
  readonly recent: unknown[] = [];
  /** Keeps a report only as what it serialises to, so the list can always be answered. */
  add(report: unknown) {
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(report) ?? 'null');
    } catch {
      return;
    }
    this.count++;
    this.recent.unshift(copy);
    this.recent.length = Math.min(this.recent.length, 50);
  }
}

const reportTypes = ['application/csp-report', 'application/reports+json'];

/** Whether no array or object in a parsed JSON value lies deeper than `levels`. */
function nestsWithin(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (levels === 0) return false;
  return Object.values(value).every((child) => nestsWithin(child, levels - 1));
}

const refused = (message: string, statusCode: number) => Object.assign(new Error(message), { statusCode });

/**
 * `POST /csp-report`: browsers send reports here (report-uri) as application/csp-report or, with the Reporting
 * API, application/reports+json. They carry no CSRF token, so the route is exempt from the check; nothing here
 * touches the database. A report too large is refused with 413, one nested too deep or not JSON with 400.
 */
export async function cspReportRoutes(app: FastifyInstance, { reports }: { reports: CspReports }) {
  const appErrorHandler = app.errorHandler;
  app.addContentTypeParser(reportTypes, { parseAs: 'string', bodyLimit: CSP_REPORT_MAX_BYTES }, (_request, body, done) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch {
      return done(refused('Неверный отчет CSP', 400), undefined);
    }
    if (!nestsWithin(parsed, CSP_REPORT_MAX_DEPTH)) return done(refused('Отчет CSP вложен слишком глубоко', 400), undefined);
    done(null, parsed);
  });
  app.post(
    '/csp-report',
    {
      schema: { body: { type: ['object', 'array'], maxProperties: 20, maxItems: 20 } },
      // Browsers send reports with no token at all, and the endpoint changes nothing but a counter.
      config: { csrf: 'exempt', rateLimit: { max: 60, timeWindow: 60_000 } },
      // The app answers an oversized body with 400 like any bad input; a report endpoint says 413.
      errorHandler: (error: FastifyError, request, reply) =>
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? reply.code(413).send({ success: false, error: 'Отчет CSP слишком велик' })
          : appErrorHandler.call(app, error, request, reply),
    },
    async (request, reply) => {
      const entries = Array.isArray(request.body) ? request.body : [request.body];
      for (const entry of entries) reports.add(entry);
      return reply.code(204).send();
    },
  );
}
