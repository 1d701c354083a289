export { parseAddress, type DBusAddressEntry } from './address.js';
export {
  DBusConnection,
  type CallHandler,
  type CallResult,
  type ConnectOptions,
  type DBusReply,
  type DBusSignal,
  type IncomingCall,
  type MethodCall,
  type Patience,
  type SignalToEmit,
} from './connection.js';
export { DBusClosedError, DBusError, DBusProtocolError, DBusTimeoutError, peerLeftTheBus } from './errors.js';
export { marshal } from './marshal.js';
export { getAllProperties, getProperty, sessionBusAddress, setProperty } from './properties.js';
export { parseSignature } from './signature.js';
export { unmarshal } from './unmarshal.js';
export { Variant } from './variant.js';
