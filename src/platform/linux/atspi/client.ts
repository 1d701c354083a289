import { DBusClosedError, DBusConnection, DBusError, DBusTimeoutError, getProperty, type MethodCall } from '../dbus/index.js';
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { BusyProcesses } from '../busy-processes.js';
import { ApplicationGoneError } from './application-gone.js';
import { keepOpenWhileAlive } from './connection-keeper.js';
import { atspiInterface, REGISTRY_BUS, ROOT_PATH, type ObjectRef } from './object-ref.js';
import { EventMonitor } from './event-monitor.js';
import { WindowRoots } from './window-roots.js';
import { ObjectFactsCache } from './object-facts.js';
import { quirksFor, WEBKITGTK, type ToolkitInfo, type ToolkitQuirks } from './toolkit.js';
import { webKitWebProcess } from '../desktop/web-process.js';
import { UnansweredActionError } from './unanswered-action.js';
import { KeeperSchedule } from './keeper-schedule.js';

/** How calls to one application travel: over its private socket when it offers one, else through the bus. */
interface AppChannel {
  connection: DBusConnection;
  /** Direct (peer-to-peer): calls carry no destination, and the bus daemon is not in the path. */
  direct: boolean;
  /** The application's private socket, when it has one. */
  address?: string;
}

/** A call on one accessible object: everything of a method call but where it goes. */
export type ObjectCall = Omit<MethodCall, 'destination' | 'path'>;

/**
 * How many connections that carried an action are kept open per application (see callObjectAlone); past it the
 * oldest is closed. An action's dispatch that is still running when 32 later actions on the same app have come
 * (32 steps inside one dialog a single action opened) is the case this bound gives up.
 */
const PARKED_PER_APPLICATION = 32;
/** How long an action call goes unanswered before the app is asked something else (see answersMeanwhile). */
const loopLookMs = 150;
/** How long the action call's answer is given after the other question's came back. */
const replyGraceMs = 25;

function closeIfDirect(channel: Promise<AppChannel>): void {
  void channel.then((open) => open.direct && open.connection.close()).catch(() => {});
}

/** An application registered with the AT-SPI registry. */
export interface AccessibleApplication extends ObjectRef {
  pid: number;
}

/** A top-level accessible (frame, dialog, window) of one application, as needed to match it to an X window. */
export interface AccessibleTopLevel extends ObjectRef {
  name: string;
  role: number;
  states: number[];
  extents?: { x: number; y: number; w: number; h: number };
}

/**
 * The driver's connection to the accessibility bus. Questions answered by the bus daemon itself (which
 * applications exist, their pids) never block on an application; calls into an application always carry
 * a timeout, because an application can hang.
 */
export class AtspiClient {
  private readonly pids = new Map<string, number>();
  private readonly toolkits = new Map<string, ToolkitInfo | undefined>();
  private readonly channels = new Map<string, Promise<AppChannel>>();
  /** The channels that are open, so the many calls of a walk skip awaiting the promise above. */
  private readonly openChannels = new Map<string, AppChannel>();
  /** Per application, the connections that carried actions and may still be inside their dispatch, oldest first. */
  private readonly parked = new Map<string, DBusConnection[]>();
  /** The keeper process holding each parked connection (see connection-keeper.ts); one keeper may hold several. */
  private readonly keepers = new Map<DBusConnection, ChildProcess>();
  /** Per application, when a keeper starts for its parked connections not yet held by one. */
  private readonly keeperSchedule = new KeeperSchedule();
  /** Per application, a connection opened ahead for its next action, which has carried nothing yet (see openAloneAhead). */
  private readonly spares = new Map<string, Promise<DBusConnection | Error | undefined>>();
  readonly facts = new ObjectFactsCache();
  readonly events = new EventMonitor(this);
  readonly windowRoots = new WindowRoots(this);
  /** Whether an application that let a call run out of time is busy (given more time) or hung. */
  private readonly busy = new BusyProcesses();

  private constructor(
    readonly bus: DBusConnection,
    readonly callTimeoutMs: number,
  ) {}

  static async connect(address: string, callTimeoutMs = 2000): Promise<AtspiClient> {
    const bus = await DBusConnection.connect(address, { timeoutMs: callTimeoutMs });
    const client = new AtspiClient(bus, callTimeoutMs);
    // Calls over the bus name their application; one that registers nothing (the bus daemon, the registry) gets no more time.
    bus.setPatience((destination, waitedMs, timeoutMs) => client.patienceFor(destination, waitedMs, timeoutMs));
    // The bus daemon announces when an application's name goes away; what we knew of it goes too.
    bus.onSignal((signal) => {
      if (signal.interface === 'org.freedesktop.DBus' && signal.member === 'NameOwnerChanged' && signal.body[2] === '') {
        client.forget(String(signal.body[0]));
      }
    });
    await bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'");
    return client;
  }

  /** More time for a call into an application that ran out of it: some while its process works on (BusyProcesses). */
  private patienceFor(busName: string, waitedMs: number, timeoutMs: number): number {
    const pid = this.pids.get(busName);
    return pid === undefined ? 0 : this.busy.patience(pid, waitedMs, timeoutMs);
  }

  private forget(busName: string): void {
    this.pids.delete(busName);
    this.toolkits.delete(busName);
    this.facts.forgetApplication(busName);
    const channel = this.channels.get(busName);
    this.channels.delete(busName);
    this.openChannels.delete(busName);
    if (channel) closeIfDirect(channel);
    const parked = this.parked.get(busName) ?? [];
    this.parked.delete(busName);
    for (const connection of parked) this.unpark(busName, connection);
    this.keeperSchedule.cancel(busName);
    this.dropSpare(busName);
  }

  /**
   * Closes every connection, except that the parked ones are let go of without a hang-up: their keepers hold them
   * until their applications exit (an application may still be running the dialog one of their actions opened).
   */
  close(): void {
    for (const busName of [...this.spares.keys()]) this.dropSpare(busName);
    for (const channel of this.channels.values()) closeIfDirect(channel);
    this.channels.clear();
    this.openChannels.clear();
    // Connections parked since the last keeper started get one now, before this process lets go of them.
    for (const busName of this.parked.keys()) this.startKeeper(busName);
    for (const connections of this.parked.values()) for (const connection of [...connections]) connection.release();
    this.parked.clear();
    this.keepers.clear();
    this.bus.close();
  }

  /**
   * The way to reach an application. ATK-based toolkits (GTK3, and everything using atk-bridge) offer a
   * private socket (Application.GetApplicationBusAddress); talking to it directly takes the accessibility
   * bus daemon out of every round trip. Toolkits without one are reached through the bus.
   */
  private channelFor(busName: string): Promise<AppChannel> {
    let channel = this.channels.get(busName);
    if (!channel) {
      const opening = this.openChannel(busName);
      channel = opening;
      this.channels.set(busName, opening);
      opening.then(
        (open) => {
          if (this.channels.get(busName) === opening) this.openChannels.set(busName, open);
        },
        // A hung app is retried on the next capture rather than remembered as reachable only through the bus.
        () => this.channels.delete(busName),
      );
    }
    return channel;
  }

  /** A method call on one accessible object, over its application's channel; resolves to the reply body. */
  callObject(ref: ObjectRef, call: ObjectCall): Promise<unknown[]> {
    const open = this.openChannels.get(ref.bus);
    if (open) return this.callOver(open, ref, call);
    return this.channelFor(ref.bus).then((channel) => this.callOver(channel, ref, call));
  }

  /**
   * A call that may not return control to the application's D-Bus dispatch for a long time, over a
   * connection of its own. atk-bridge answers DoAction first and then performs the action inside the
   * dispatch of that message; an action that opens a modal GTK3 dialog (gtk_dialog_run) runs the dialog
   * right there, and the connection that carried it stays deaf until the dialog closes. On the shared
   * channel that would leave the app unreadable exactly when its dialog needs to be read.
   */
  async callObjectAlone(ref: ObjectRef, call: ObjectCall): Promise<unknown[]> {
    const channel = await this.channelFor(ref.bus);
    // Without a private socket the call shares the bus connection; a reply that comes after the timeout
    // (when the dialog closes) finds no pending call and is dropped, so that connection stays usable.
    if (!channel.address) return this.callUnanswerable(channel, ref, call);
    let connection: DBusConnection;
    try {
      connection = (await this.spareFor(ref.bus)) ?? (await this.connectAlone(channel.address));
    } catch (error) {
      const message = (error as Error).message;
      // A socket that refuses or drops the connection (or is gone), or closes it during the handshake, belongs to an
      // app that exited meanwhile: a click 40 ms into an app's kill failed here as an internal error, in CI once as
      // "authentication failed: the server closed the connection" (an app that hangs keeps the connection unanswered).
      if (/\b(ECONNREFUSED|ECONNRESET|ENOENT|EPIPE)\b|closed the connection/.test(message)) throw new ApplicationGoneError(ref.bus, this.pids.get(ref.bus));
      // The socket took a connection before; an app that no longer answers one is hung or gone, and the
      // shared channel would only spend another timeout finding that out.
      throw new Error(`the application (${ref.bus}) did not take a connection on its accessibility socket: ${message}`);
    }
    try {
      return await this.callUnanswerable({ connection, direct: true }, ref, call);
    } finally {
      this.park(ref.bus, connection);
    }
  }

  private connectAlone(address: string): Promise<DBusConnection> {
    return DBusConnection.connect(address, { timeoutMs: this.callTimeoutMs, connectTimeoutMs: this.callTimeoutMs, peerToPeer: true });
  }

  /**
   * Opens the connection the app's next action will go over (see callObjectAlone), for an action that has reads to do
   * first: opening one (a socket, the handshake, the app's answer) was a millisecond or more on every action's path,
   * between its checks and its call. A spare has carried nothing, so closing it (the app gone, this client closed)
   * interrupts no dispatch of the app's.
   */
  openAloneAhead(busName: string): void {
    if (this.spares.has(busName)) return;
    const opening = this.channelFor(busName).then(
      (channel) => (channel.address ? this.connectAlone(channel.address).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))) : undefined),
      () => undefined,
    );
    this.spares.set(busName, opening);
  }

  /**
   * The connection opened ahead for the app's action, if it is up; taken, it is no longer the spare. The error of one
   * that could not be opened is the action's own (an app gone or hung is not asked twice); one closed since (its app
   * gone meanwhile, or one opened before the app was replaced) leaves the action to open its own, which says why.
   */
  private async spareFor(busName: string): Promise<DBusConnection | undefined> {
    const spare = this.spares.get(busName);
    this.spares.delete(busName);
    const connection = await spare;
    if (connection instanceof Error) throw connection;
    return connection && !connection.closed ? connection : undefined;
  }

  private dropSpare(busName: string): void {
    const spare = this.spares.get(busName);
    this.spares.delete(busName);
    void spare?.then((connection) => connection instanceof DBusConnection && connection.close());
  }

  /**
   * Keeps a connection that carried an action open instead of closing it. The app may still be inside that call's
   * dispatch (running the dialog the action opened), and nothing may arrive on the connection meanwhile: atk-bridge's
   * key snooper runs a main loop of its own for every real key press, which dispatches the connection again, and
   * libdbus's dispatch waits for the one under way, in the same thread, for ever. Closing it was such an arrival (its
   * hang-up): Gnumeric's Save As dialog, chosen through invoke_menu, froze at the first Escape typed into it, holding
   * the X keyboard and pointer grab of its open drop-down, so no app on the desktop took real input any more. The
   * driver going away is such an arrival too (FileZilla's Site Manager, chosen through invoke_menu, a key typed into it,
   * then the daemon replaced): a keeper process holds the parked connections until their app exits, so the driver's
   * exit hangs none up (a crash before their keeper starts, a second or a few after their action, hangs them up).
   * Silent connections cost the app one idle socket each, and a keeper process an app; they are closed when the app goes away, and past
   * PARKED_PER_APPLICATION the oldest is (by then its action is long over, unless one dialog took every action since).
   */
  private park(busName: string, connection: DBusConnection): void {
    const parked = this.parked.get(busName) ?? [];
    this.parked.set(busName, parked);
    parked.push(connection);
    connection.onClose(() => {
      const at = parked.indexOf(connection);
      if (at >= 0) parked.splice(at, 1);
    });
    // The app's pid is asked now (remembered), so a keeper can start at once when this process ends.
    void this.pidOf(busName).catch(() => undefined);
    // Starting a process costs milliseconds of this one's time: it is done a moment after the first connection parked
    // since the app's last keeper, for every connection parked by then, not on each action's path (a click cost 8 ms
    // more with a keeper each): at most one keeper a second an app, however fast its actions come, and none while
    // an action is under way (see keeper-schedule.ts).
    this.keeperSchedule.schedule(busName, () => this.startKeeper(busName));
    while (parked.length > PARKED_PER_APPLICATION) this.unpark(busName, parked.shift()!);
  }

  /** Marks an action as under way until the returned function is called: no keeper starts meanwhile (keeper-schedule.ts). */
  actionUnderway(): () => void {
    return this.keeperSchedule.actionUnderway();
  }

  /** Starts one keeper for the app's parked connections that no keeper holds yet. */
  private startKeeper(busName: string): void {
    this.keeperSchedule.cancel(busName);
    const pid = this.pids.get(busName);
    const unkept = (this.parked.get(busName) ?? []).filter((connection) => !this.keepers.has(connection) && !connection.closed);
    const keeper = pid === undefined ? undefined : keepOpenWhileAlive(unkept.map((connection) => connection.sharedSocket), pid);
    if (keeper) for (const connection of unkept) this.keepers.set(connection, keeper);
  }

  /**
   * Closes a parked connection for good (its action is long over, or its app gone). Its keeper goes too; the other
   * connections it held, still open here, get another keeper a moment later (see keeper-schedule.ts).
   */
  private unpark(busName: string, connection: DBusConnection): void {
    connection.close();
    const keeper = this.keepers.get(connection);
    if (!keeper) return;
    keeper.kill();
    for (const [held, by] of [...this.keepers]) if (by === keeper) this.keepers.delete(held);
    if ((this.parked.get(busName) ?? []).some((other) => !other.closed)) this.keeperSchedule.schedule(busName, () => this.startKeeper(busName));
  }

  /**
   * A call whose timeout means "sent, not answered" (UnansweredActionError), not "failed". It is not waited for past
   * its timeout however busy the app: an app inside the dialog the action opened answers only once the dialog closes,
   * and one animating in that dialog (a spinner, a blinking caret) spends CPU time all along.
   */
  private async callUnanswerable(channel: AppChannel, ref: ObjectRef, call: ObjectCall): Promise<unknown[]> {
    const started = Date.now();
    const calling = this.callOver(channel, ref, { ...call, patient: false });
    calling.catch(() => undefined);
    try {
      const first = await Promise.race([calling.then((body) => ({ body })), this.answersMeanwhile(ref, calling)]);
      if ('body' in first) return first.body;
      throw new UnansweredActionError(call.member, Date.now() - started, true);
    } catch (error) {
      if (error instanceof DBusTimeoutError) throw new UnansweredActionError(call.member, error.timeoutMs);
      throw error;
    }
  }

  /**
   * Settles (with nothing) when the app answers a question over its shared channel while `calling` is still
   * unanswered, asked once the call has gone unanswered for loopLookMs; never, when the call is answered first or
   * the question is not. Qt runs a menu a button's ShowMenu pops up, and a modal dialog an action opens, in an event
   * loop inside the call, which it answers once that closes: each such click waited out the call's whole timeout (2 s)
   * before its effect was read. An app busy inside the call answers nothing else either, and is waited for as before.
   */
  private answersMeanwhile(ref: ObjectRef, calling: Promise<unknown>): Promise<{ loopInside: true }> {
    let answered = false;
    const settled = calling.then(
      () => (answered = true),
      () => (answered = true),
    );
    return new Promise((resolve) => {
      void (async () => {
        // Unreferenced: the look, pending after almost every call is answered, keeps no process from exiting.
        await Promise.race([settled, sleep(loopLookMs, undefined, { ref: false })]);
        if (answered) return;
        const asked = await this.callObject(ref, { interface: atspiInterface('Accessible'), member: 'GetRole', timeoutMs: this.callTimeoutMs, patient: false }).then(
          () => true,
          () => false,
        );
        // The call's own answer, sent first over the other socket, may be read a moment after the question's.
        if (asked) await Promise.race([settled, sleep(replyGraceMs)]);
        if (asked && !answered) resolve({ loopInside: true });
      })();
    });
  }

  private async callOver(channel: AppChannel, ref: ObjectRef, call: ObjectCall): Promise<unknown[]> {
    const reply = await channel.connection.call({
      destination: channel.direct ? '' : ref.bus,
      path: ref.path,
      interface: call.interface,
      member: call.member,
      signature: call.signature,
      body: call.body,
      timeoutMs: call.timeoutMs,
      noReplyExpected: call.noReplyExpected,
      patient: call.patient,
    }).catch((error: unknown) => {
      // Only the application holds its private socket: when that closes, the application is gone.
      if (channel.direct && error instanceof DBusClosedError) throw new ApplicationGoneError(ref.bus, this.pids.get(ref.bus));
      throw error;
    });
    return reply.body;
  }

  private async openChannel(busName: string): Promise<AppChannel> {
    // Known before a call runs out of time, the app's pid lets a busy app be told from a hung one (patienceFor).
    void this.pidOf(busName).catch(() => undefined);
    const viaBus: AppChannel = { connection: this.bus, direct: false };
    let address: string;
    try {
      const reply = await this.bus.call({
        destination: busName,
        path: ROOT_PATH,
        interface: atspiInterface('Application'),
        member: 'GetApplicationBusAddress',
      });
      address = String(reply.body[0] ?? '');
    } catch (error) {
      if (error instanceof DBusError) return viaBus;
      throw error;
    }
    if (!address) return viaBus;
    try {
      const connection = await DBusConnection.connect(address, {
        timeoutMs: this.callTimeoutMs,
        connectTimeoutMs: this.callTimeoutMs,
        peerToPeer: true,
      });
      connection.onClose(() => {
        this.channels.delete(busName);
        this.openChannels.delete(busName);
      });
      connection.setPatience((_, waitedMs, timeoutMs) => this.patienceFor(busName, waitedMs, timeoutMs));
      return { connection, direct: true, address };
    } catch {
      // The socket may be unreachable from here (another mount namespace, a sandbox): the bus still works.
      return viaBus;
    }
  }

  /** The unix process id of a bus connection, from the bus daemon (one pid may own several applications). */
  async pidOf(busName: string): Promise<number> {
    const known = this.pids.get(busName);
    if (known !== undefined) return known;
    const reply = await this.bus.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'GetConnectionUnixProcessID',
      signature: 's',
      body: [busName],
    });
    const pid = Number(reply.body[0]);
    // Unique bus names are never reused, so the answer stays true for the life of the name.
    this.pids.set(busName, pid);
    return pid;
  }

  async applications(): Promise<AccessibleApplication[]> {
    const reply = await this.bus.call({
      destination: REGISTRY_BUS,
      path: ROOT_PATH,
      interface: atspiInterface('Accessible'),
      member: 'GetChildren',
    });
    const refs = (reply.body[0] as [string, string][]).map(([bus, path]) => ({ bus, path }));
    const pids = await Promise.all(refs.map((ref) => this.pidOf(ref.bus).catch(() => 0)));
    return refs.map((ref, i) => ({ ...ref, pid: pids[i]! })).filter((app) => app.pid > 0);
  }

  /** What the application's toolkit is known to do; an app whose toolkit cannot be read gets the unknown toolkit's. */
  async quirksOf(busName: string): Promise<ToolkitQuirks> {
    return quirksFor(await this.toolkitOf(busName).catch(() => undefined));
  }

  /** What the application's toolkit does, when its toolkit was read already (undefined otherwise): for a decision that cannot wait for a call. */
  knownQuirksOf(busName: string): ToolkitQuirks | undefined {
    return this.toolkits.has(busName) ? quirksFor(this.toolkits.get(busName)) : undefined;
  }

  /** Toolkit name and version from the application's root (org.a11y.atspi.Application), cached per bus name. */
  async toolkitOf(busName: string): Promise<ToolkitInfo | undefined> {
    if (this.toolkits.has(busName)) return this.toolkits.get(busName);
    let toolkit: ToolkitInfo | undefined;
    try {
      // Asked one by one: GTK3's bridge fails GetAll on this interface as a whole.
      const [name, version] = await Promise.all(
        ['ToolkitName', 'Version'].map((property) =>
          getProperty(this.bus, busName, ROOT_PATH, atspiInterface('Application'), property, this.callTimeoutMs),
        ),
      );
      toolkit = { name: String(name ?? ''), version: String(version ?? '') };
    } catch (error) {
      if (!(error instanceof DBusError)) throw error;
      // WebKitGTK's web process puts a page's objects on the bus with no application root of its own (its objects
      // name the app showing the view as theirs, a GTK one): it is known by its executable instead.
      toolkit = webKitWebProcess(await this.pidOf(busName).catch(() => 0)) ? { name: WEBKITGTK, version: '' } : undefined;
    }
    this.toolkits.set(busName, toolkit);
    return toolkit;
  }

  /** The application's top-level accessibles with what is needed to tell them apart. */
  async topLevels(app: ObjectRef): Promise<AccessibleTopLevel[]> {
    const reply = await this.bus.call({ destination: app.bus, path: app.path, interface: atspiInterface('Accessible'), member: 'GetChildren' });
    const refs = (reply.body[0] as [string, string][]).map(([bus, path]) => ({ bus, path }));
    return Promise.all(refs.map((ref) => this.asTopLevel(ref)));
  }

  /** An object described as a top level is: its name, role, states and screen box. */
  async asTopLevel(ref: ObjectRef): Promise<AccessibleTopLevel> {
    const [name, role, state, extents] = await Promise.all([
      getProperty(this.bus, ref.bus, ref.path, atspiInterface('Accessible'), 'Name', this.callTimeoutMs),
      this.bus.call({ destination: ref.bus, path: ref.path, interface: atspiInterface('Accessible'), member: 'GetRole' }),
      this.bus.call({ destination: ref.bus, path: ref.path, interface: atspiInterface('Accessible'), member: 'GetState' }),
      this.bus
        .call({ destination: ref.bus, path: ref.path, interface: atspiInterface('Component'), member: 'GetExtents', signature: 'u', body: [0] })
        .catch(() => undefined),
    ]);
    const box = extents?.body[0] as number[] | undefined;
    return {
      ...ref,
      name: String(name ?? ''),
      role: Number(role.body[0]),
      states: state.body[0] as number[],
      extents: box ? { x: box[0]!, y: box[1]!, w: box[2]!, h: box[3]! } : undefined,
    };
  }
}
