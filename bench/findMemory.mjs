#!/usr/bin/env node
// Find (issue #30): the heap a filtered list of 50,000 connections keeps (src/filter/filterMatch.ts): each row's folded
// texts after the first application of a filter, and the list's index after the second (made when a list is filtered
// again). Per connection, heap after gc(). Needs --expose-gc; bench/run.mjs runs it in the memory section.
//
//   node --expose-gc bench/findMemory.mjs
import { emitRows, heapUsed, outModule, progress } from './lib/common.mjs';

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
const { FilterSubjects } = outModule('filter/filterMatch.js');
const { parseFilter } = outModule('filter/filterQuery.js');
const { connectionRows } = outModule('lists/findRows.js');
const { validateConnection } = outModule('api/validate.js');
const { validateList } = outModule('api/validateList.js');
const { MockDataset } = outModule('mock/data.js');

const CONNECTIONS = 50_000;

progress('memory', `Find: the heap a filter keeps for ${CONNECTIONS.toLocaleString('en-US')} connections`);
const dataset = new MockDataset({ connections: CONNECTIONS, teams: 500 });
const items = validateList(JSON.parse(JSON.stringify(dataset.connections)), validateConnection, 'connections').items;
const filters = ['slack', 'team:3 -type:pdf'].map((f) => parseFilter(f, 'connections').filter);
const before = heapUsed();
const subjects = new FilterSubjects((item) => connectionRows.subject(item.value, 'Production'));
subjects.filter(filters[0], items);
const once = heapUsed();
subjects.filter(filters[1], items);
const twice = heapUsed();
if (subjects.count(filters[0], items) === 0) throw new Error('the filter matched nothing');
emitRows([{ section: 'memory-find', folded: (once - before) / CONNECTIONS, indexed: (twice - before) / CONNECTIONS }]);
