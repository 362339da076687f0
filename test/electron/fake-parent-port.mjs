// Loaded (--import) before the module a fake utility process runs (fake-utility-process.ts): gives it
// process.parentPort as Electron's utility processes have it — messages arrive as { data, ports },
// queued until a 'message' listener is added; postMessage answers — and takes process.send away,
// which a utility process does not have.
import { EventEmitter } from 'node:events';

const send = process.send.bind(process);
const port = new EventEmitter();
const queued = [];
const deliver = () => {
  for (const event of queued.splice(0)) port.emit('message', event);
};
process.on('message', (data) => {
  queued.push({ data, ports: [] });
  if (port.listenerCount('message') > 0) deliver();
});
port.on('newListener', (name) => {
  if (name === 'message') setImmediate(deliver);
});
port.postMessage = (message) => void send(message);
Object.defineProperty(process, 'parentPort', { value: port, enumerable: true, writable: false });
process.send = undefined;
// A utility process ends with the app that started it.
process.on('disconnect', () => process.exit(0));
