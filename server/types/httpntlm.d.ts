// The NTLM messages of httpntlm the SharePoint Server client uses (the package ships no types).
declare module "httpntlm" {
  interface NtlmAccount {
    username: string;
    password: string;
    domain: string;
    workstation: string;
  }
  interface Type2Message {
    serverChallenge: Buffer;
  }
  const httpntlm: {
    ntlm: {
      createType1Message(account: NtlmAccount): string;
      parseType2Message(header: string, onError: (error: Error) => void): Type2Message | null;
      createType3Message(type2: Type2Message, account: NtlmAccount): string;
    };
  };
  export default httpntlm;
}
