export type { RunningStandIn, StandInOptions } from './stand-in';
