// Records the wire traffic of a MongoDB stand-in process, for `workload-mix.bench.js` to replay.
// Preloaded into the stand-in: `node --require bench/mongo/capture-hook.js …` with
// MONGO_CAPTURE_FILE=<file>; e.g. BENCH_MONGO_NODE_ARGS="--require $PWD/bench/mongo/capture-hook.js"
// for the import benchmark. Each record: [u8 direction (0 in, 1 out)][u32 connection][u32 length][bytes].
const fs = require('node:fs');
const net = require('node:net');

const file = process.env.MONGO_CAPTURE_FILE;
if (file) {
  const fd = fs.openSync(file, 'w');
  let connections = 0;
  const record = (direction, connection, chunk) => {
    const head = Buffer.allocUnsafe(9);
    head.writeUInt8(direction, 0);
    head.writeUInt32LE(connection, 1);
    head.writeUInt32LE(chunk.length, 5);
    fs.writeSync(fd, head);
    fs.writeSync(fd, chunk);
  };
  const createServer = net.createServer;
  net.createServer = function capturingCreateServer(...args) {
    const listenerIndex = args.findIndex((argument) => typeof argument === 'function');
    if (listenerIndex >= 0) {
      const listener = args[listenerIndex];
      args[listenerIndex] = (socket) => {
        connections += 1;
        const connection = connections;
        socket.on('data', (chunk) => record(0, connection, chunk));
        const write = socket.write;
        socket.write = function capturingWrite(chunk, ...rest) {
          record(1, connection, Buffer.from(chunk));
          return write.call(this, chunk, ...rest);
        };
        listener(socket);
      };
    }
    return createServer.apply(this, args);
  };
}
