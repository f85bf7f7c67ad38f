export { type Script, ScriptedModel, type ScriptedStep } from './scripted-model.js';
export { createScriptedResponse, type ScriptedAnswer } from './scripted-response.js';
