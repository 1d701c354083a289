import { readlinkSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * The process is WebKit's web process (WebKitGTK's and WPE's WebKitWebProcess), which draws the pages of a web view
 * shown by another process and puts their objects on the accessibility bus itself.
 */
export function webKitWebProcess(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    return basename(readlinkSync(`/proc/${pid}/exe`)) === 'WebKitWebProcess';
  } catch {
    return false;
  }
}
