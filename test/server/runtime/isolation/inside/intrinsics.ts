// The context's own built-ins this code relies on, taken when the bundle is evaluated, before the
// body runs and can replace them. Everything under inside/ runs in the body's context (see
// ../script-worker.ts): it may use only what every realm has, never a module of the server.
export const parse = JSON.parse;
export const stringify = JSON.stringify;
export const ErrorType = Error;
export const TypeErrorType = TypeError;
export const RangeErrorType = RangeError;
export const EvalErrorType = EvalError;
export const PromiseType = Promise;
export const StringType = String;
export const apply = Reflect.apply;
export const then = Promise.prototype.then;
export const keys = Object.keys;
export const hasOwn = Object.prototype.hasOwnProperty;
export const functionSource = Function.prototype.toString;
export const regexpSource = Object.getOwnPropertyDescriptor(RegExp.prototype, "source")!.get!;
export const regexpFlags = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags")!.get!;
export const WeakMapType = WeakMap;
export const weakGet = WeakMap.prototype.get;
export const weakSet = WeakMap.prototype.set;
export const arrayFrom = Array.from;
