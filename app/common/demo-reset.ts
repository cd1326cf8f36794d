/** What a reset of the demo firm did (the API's answer, the console's toast). */
export interface DemoResetResult {
  removed: { notices: number; cases: number; files: number };
  added: { cases: number; notices: number };
}
