/** SDK test beds (testbeds/PROGRAM.md): one scripted handler program, run on every official SDK over stdio. */
export { SDK_TESTBED_LANGUAGES, HTTP_MODES, sdkTestbed, sdkTestbedCache, sdkTestbedManifest, sdkTestbedReleases, installSdkTestbed, type HttpMode, type SdkTestbed, type SdkTestbedInstall, type SdkTestbedRelease, type SdkTestbedSkip, type SdkTestbedClient, type SdkTestbedClientManifest, type SdkTestbedLanguage, type SdkTestbedManifest, type SdkTestbedOptions, type SdkTestbedTransport } from './sdkTestbed.ts';
export { programCall, TESTBED_TOOL, type ProgramCallOptions } from './programCall.ts';
export { withHandlerEvents, SIDE_CHANNEL_PREFIX, SideChannelError, type SideChannelEvent } from './handlerEvents.ts';
export { runTestbedPrograms, endpointOf, type TestbedProgram, type TestbedProgramsOptions, type TestbedProgramsRun } from './runProgram.ts';
export { programTranscript, type ProgramTranscript } from './programTranscript.ts';
export { SDK_DIFFERENCES, SDK_LACKS, withoutKnownDifferences, type SdkDifference, type SdkLack } from './sdkDifferences.ts';
export { testbedTrace } from './testbedTrace.ts';
export { testbedScript } from './caseScript.ts';
export { programOf, programShrinks, testbedCases, testbedPlanArbitrary, testbedProgramArbitrary, TESTBED_PALETTE, type TestbedCaseConstraints } from './testbedCases.ts';
export { testbedBaselineOf, loadTestbedBaseline, testbedBaselinePath, updateTestbedBaseline, type TestbedBaseline, type TestbedBaselineEntry } from './testbedBaseline.ts';
export { cancelPostProbe, stdinEofProbe, duplicateIdProbe, cancelInitializeProbe, probeBehaviours, probeTransports, rated, ratedText, sideChannel, evidenceOf, type BehaviourQuestion, type ProbeAnswer, type RatedAnswer } from './behaviourProbes.ts';
