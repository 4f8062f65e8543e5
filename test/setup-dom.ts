import '@testing-library/jest-dom';

// jsdom's globals here are Node's fetch and Request, which reject relative URLs; a browser resolves them against the
// page, so do the same (ky builds a Request from '/ajax/…' paths before msw sees it).
const NodeRequest = globalThis.Request;
globalThis.Request = class Request extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, globalThis.location?.href ?? 'http://localhost/').href : input, init);
  }
};
