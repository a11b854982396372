#!/usr/bin/env node
// The convfiles command of the npm package: it runs the static binary of
// the package for this platform (@convfiles/linux-x64, …), which npm
// installed beside this one as an optional dependency, with the same
// arguments, standard streams and exit status.
"use strict";
const { spawn } = require("node:child_process");

const platform = process.platform + "-" + process.arch; // linux-x64, darwin-arm64, …
let bin;
try {
  bin = require.resolve("@convfiles/" + platform + "/bin/convfiles");
} catch {
  process.stderr.write(
    "convfiles: no binary for " + platform + " was installed (@convfiles/" + platform + ").\n" +
      "convfiles ships for linux-x64, linux-arm64, darwin-x64 and darwin-arm64; " +
      "if yours is one of them, install again without --no-optional (npm) or --ignore-optional.\n",
  );
  process.exit(1);
}

const child = spawn(bin, process.argv.slice(2), { stdio: "inherit" });
// A client that stops this process stops convfiles the same way.
const forward = (signal) => child.kill(signal);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
child.on("error", (err) => {
  process.stderr.write("convfiles: cannot start " + bin + ": " + err.message + "\n");
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
