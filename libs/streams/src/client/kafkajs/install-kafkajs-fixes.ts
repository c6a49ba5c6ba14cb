// Imported for its effect, before any module that loads kafkajs: ES module semantics evaluate
// a module's imports in order, before its body, so the fixes must be a module of their own.
import { installKafkajsFixes } from './kafkajs-fixes';

installKafkajsFixes();
