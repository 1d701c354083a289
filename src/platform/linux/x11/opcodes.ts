// Core protocol major opcodes (X11R6 protocol encoding), indexed for error and timeout messages.

export const Opcode = {
  CreateWindow: 1,
  ChangeWindowAttributes: 2,
  GetWindowAttributes: 3,
  DestroyWindow: 4,
  MapWindow: 8,
  UnmapWindow: 10,
  ConfigureWindow: 12,
  GetGeometry: 14,
  QueryTree: 15,
  InternAtom: 16,
  GetAtomName: 17,
  ChangeProperty: 18,
  DeleteProperty: 19,
  GetProperty: 20,
  SendEvent: 25,
  GrabServer: 36,
  UngrabServer: 37,
  QueryPointer: 38,
  TranslateCoordinates: 40,
  WarpPointer: 41,
  SetInputFocus: 42,
  GetInputFocus: 43,
  QueryKeymap: 44,
  FreePixmap: 54,
  CreateGC: 55,
  ChangeGC: 56,
  FreeGC: 60,
  PolyFillRectangle: 70,
  PutImage: 72,
  GetImage: 73,
  QueryExtension: 98,
  ListExtensions: 99,
  ChangeKeyboardMapping: 100,
  GetKeyboardMapping: 101,
  GetModifierMapping: 119,
} as const;

// Every core request name, so errors caused by any request (ours or not) read well.
const coreRequestNames = [
  '', 'CreateWindow', 'ChangeWindowAttributes', 'GetWindowAttributes', 'DestroyWindow', 'DestroySubwindows',
  'ChangeSaveSet', 'ReparentWindow', 'MapWindow', 'MapSubwindows', 'UnmapWindow', 'UnmapSubwindows',
  'ConfigureWindow', 'CirculateWindow', 'GetGeometry', 'QueryTree', 'InternAtom', 'GetAtomName', 'ChangeProperty',
  'DeleteProperty', 'GetProperty', 'ListProperties', 'SetSelectionOwner', 'GetSelectionOwner', 'ConvertSelection',
  'SendEvent', 'GrabPointer', 'UngrabPointer', 'GrabButton', 'UngrabButton', 'ChangeActivePointerGrab',
  'GrabKeyboard', 'UngrabKeyboard', 'GrabKey', 'UngrabKey', 'AllowEvents', 'GrabServer', 'UngrabServer',
  'QueryPointer', 'GetMotionEvents', 'TranslateCoordinates', 'WarpPointer', 'SetInputFocus', 'GetInputFocus',
  'QueryKeymap', 'OpenFont', 'CloseFont', 'QueryFont', 'QueryTextExtents', 'ListFonts', 'ListFontsWithInfo',
  'SetFontPath', 'GetFontPath', 'CreatePixmap', 'FreePixmap', 'CreateGC', 'ChangeGC', 'CopyGC', 'SetDashes',
  'SetClipRectangles', 'FreeGC', 'ClearArea', 'CopyArea', 'CopyPlane', 'PolyPoint', 'PolyLine', 'PolySegment',
  'PolyRectangle', 'PolyArc', 'FillPoly', 'PolyFillRectangle', 'PolyFillArc', 'PutImage', 'GetImage', 'PolyText8',
  'PolyText16', 'ImageText8', 'ImageText16', 'CreateColormap', 'FreeColormap', 'CopyColormapAndFree',
  'InstallColormap', 'UninstallColormap', 'ListInstalledColormaps', 'AllocColor', 'AllocNamedColor',
  'AllocColorCells', 'AllocColorPlanes', 'FreeColors', 'StoreColors', 'StoreNamedColor', 'QueryColors',
  'LookupColor', 'CreateCursor', 'CreateGlyphCursor', 'FreeCursor', 'RecolorCursor', 'QueryBestSize',
  'QueryExtension', 'ListExtensions', 'ChangeKeyboardMapping', 'GetKeyboardMapping', 'ChangeKeyboardControl',
  'GetKeyboardControl', 'Bell', 'ChangePointerControl', 'GetPointerControl', 'SetScreenSaver', 'GetScreenSaver',
  'ChangeHosts', 'ListHosts', 'SetAccessControl', 'SetCloseDownMode', 'KillClient', 'RotateProperties',
  'ForceScreenSaver', 'SetPointerMapping', 'GetPointerMapping', 'SetModifierMapping', 'GetModifierMapping',
];

export function coreRequestName(major: number): string | undefined {
  if (major === 127) return 'NoOperation';
  return coreRequestNames[major] || undefined;
}
