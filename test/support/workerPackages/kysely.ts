import { handedOn } from './handedOn';

module.exports = handedOn('kysely');
