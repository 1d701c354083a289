// Applications as the app tools see them: installed ones, running ones, and how one is started.

/** An installed application (a freedesktop .desktop file on Linux). */
export interface InstalledApp {
  /** The backend's id for it, e.g. "org.gnome.Calculator.desktop". */
  id: string;
  /** Where it is declared (the .desktop file): launch_path in results. */
  path: string;
  name: string;
  lastModified: Date;
}

/** An application with at least one top-level window, one record per process. */
export interface RunningApp {
  pid: number;
  name: string;
  active: boolean;
  /** The installed application it most likely came from. */
  entry?: InstalledApp;
}

/** How a name given to launch_app will be started; nothing runs until start(). */
export interface LaunchPlan {
  name: string;
  /** The installed application the name matched, if it matched one, and how the name matched it. */
  entry?: InstalledApp;
  matchedBy?: 'id' | 'name' | 'program' | 'substring';
  /** Set for a browser (or an Electron app given a debugging port): what it is started with besides. */
  browser?: BrowserStart;
  /**
   * Starts it detached from the driver (it outlives the call and the driver), in the caller's working directory
   * `cwd`, so relative file names in its arguments are the caller's (and its file dialogs open there).
   */
  start(cwd: string): Promise<StartedApp>;
}

/** A browser's start as launch_app reports it. */
export interface BrowserStart {
  family: 'chromium' | 'firefox' | 'electron';
  /** The fresh profile the driver made for it (removed when the browser exits); a separate instance from any running one. */
  profile?: string;
  /** Chromium's sandbox is off (--no-sandbox): it refuses to start as root otherwise. */
  sandboxDisabled: boolean;
}

/** How a process ended: its exit status, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: string | null;
}

/** A started process, where its output goes, and its end (a single-instance app's launcher hands over and exits). */
export interface StartedApp {
  pid: number;
  log: string;
  exited: Promise<ProcessExit>;
  /** The last line it wrote to its output (its log), for an error that says why it ended. */
  lastOutput(): string | undefined;
}
