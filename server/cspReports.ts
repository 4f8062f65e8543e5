import type { FastifyInstance } from 'fastify';

/** CSP violation reports, kept in memory: a count and the newest few (enough to notice a broken policy). */
export class CspReports {
  count = 0;
  readonly recent: unknown[] = [];
  add(report: unknown) {
    this.count++;
    this.recent.unshift(report);
    this.recent.length = Math.min(this.recent.length, 50);
  }
}

const reportTypes = ['application/csp-report', 'application/reports+json'];

/**
 * `POST /csp-report`: browsers send reports here (report-uri) as application/csp-report or, with the Reporting
 * API, application/reports+json. They carry no CSRF token, so the CSRF hook lets this path through; nothing here
 * touches the database.
 */
export async function cspReportRoutes(app: FastifyInstance, { reports }: { reports: CspReports }) {
  app.addContentTypeParser(reportTypes, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('Неверный отчет CSP'), { statusCode: 400 }), undefined);
    }
  });
  app.post(
    '/csp-report',
    { schema: { body: { type: ['object', 'array'], maxProperties: 20, maxItems: 20 } }, config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
    async (request, reply) => {
      const entries = Array.isArray(request.body) ? request.body : [request.body];
      for (const entry of entries) reports.add(entry);
      return reply.code(204).send();
    },
  );
}
