// Jest gives each test file its own realm, but MikroORM keeps entity metadata on globalThis: entries written
// by global setup (another realm) hold Maps that fail `instanceof Map` here. Start every test file clean.
import { MetadataStorage } from '@mikro-orm/core';

MetadataStorage.clear();
