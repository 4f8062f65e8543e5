/** A member of staff's browser at the desk, for server tests: its cookie (path /desk) and CSRF token, kept across calls. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Role } from '../../../src/desk/services/rules/permissions';

export class DeskClient {
  cookie = '';
  csrf = '';
  constructor(readonly app: FastifyInstance) {}

  private keep(response: LightMyRequestResponse) {
    const set = response.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const match = /^desk_sid=([^;]*)/.exec(line);
      if (match) this.cookie = `desk_sid=${match[1]}`;
    }
    const token = (response.json() as { csrfToken?: string } | undefined)?.csrfToken;
    if (typeof token === 'string') this.csrf = token;
    return response;
  }

  async get(url: string, headers: Record<string, string> = {}) {
    const response = await this.app.inject({ method: 'GET', url: `/desk/api${url}`, headers: { ...(this.cookie ? { cookie: this.cookie } : {}), ...headers } });
    return url === '/session' ? this.keep(response) : response;
  }

  async post(url: string, body: unknown = {}, headers: Record<string, string> = {}) {
    const response = await this.app.inject({
      method: 'POST',
      url: `/desk/api${url}`,
      headers: { 'content-type': 'application/json', 'x-csrf-token': this.csrf, ...(this.cookie ? { cookie: this.cookie } : {}), ...headers },
      payload: JSON.stringify(body),
    });
    if (response.statusCode < 300 && ['/sign-in', '/sign-out', '/password'].includes(url)) this.keep(response);
    return response;
  }

  /** Opens the desk (a session, its token) and signs in. */
  async signIn(email: string, password: string) {
    await this.get('/session');
    const answer = await this.post('/sign-in', { email, password });
    if (answer.statusCode !== 200) throw new Error(`sign-in answered ${answer.statusCode} ${answer.body}`);
    return this;
  }
}

/** A desk client signed in as the sandbox's demo account of a role. */
export async function deskAs(app: FastifyInstance, role: Role): Promise<DeskClient> {
  const account = app.desk.demoAccounts.find((demo) => demo.role === role);
  if (!account) throw new Error(`no demo account for ${role}: is the sandbox on?`);
  return new DeskClient(app).signIn(account.email, account.password);
}
