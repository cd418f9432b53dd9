/** SDK test beds (testbeds/PROGRAM.md): one scripted handler program, run on every official SDK over stdio. */
export { SDK_TESTBED_LANGUAGES, sdkTestbed, sdkTestbedCache, type SdkTestbed, type SdkTestbedSkip, type SdkTestbedLanguage, type SdkTestbedManifest, type SdkTestbedOptions } from './sdkTestbed.ts';
export { programCall, TESTBED_TOOL, type ProgramCallOptions } from './programCall.ts';
export { withHandlerEvents, SIDE_CHANNEL_PREFIX, SideChannelError, type SideChannelEvent } from './handlerEvents.ts';
export { runTestbedPrograms, type TestbedProgram, type TestbedProgramsRun } from './runProgram.ts';
export { programTranscript, type ProgramTranscript } from './programTranscript.ts';
export { SDK_DIFFERENCES, SDK_LACKS, withoutKnownDifferences, type SdkDifference, type SdkLack } from './sdkDifferences.ts';
