// The person at the machine, as far as the driver can tell: keys pressed by xdotool, a separate X client whose
// XTEST input the server delivers like the real keyboard's. Resolves with the time xdotool returned.
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';

export function personPresses(env: NodeJS.ProcessEnv, key: string, timeoutMs = 5000): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('xdotool', ['key', key], { env, timeout: timeoutMs }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`xdotool key ${key} failed: ${error.message} ${stderr}`.trim()));
      else resolve(performance.now());
    });
  });
}
