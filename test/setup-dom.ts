import '@testing-library/jest-dom';
import { preloadBuiltIn, preloadOnDemand } from '../src/machines/onDemand';

// jsdom's globals here are Node's fetch and Request, which reject relative URLs; a browser resolves them against the
// page, so do the same (ky builds a Request from '/ajax/…' paths before msw sees it).
const NodeRequest = globalThis.Request;
globalThis.Request = class Request extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, globalThis.location?.href ?? 'http://localhost/').href : input, init);
  }
};

// The machines' children and the page's are chunks loaded on demand (src/machines/onDemand.ts): tests run them as
// loaded, as the page does once its first step is painted.
beforeAll(() => Promise.all([preloadBuiltIn(), preloadOnDemand()]));
