// Package msgnames turns the numeric type of an inner-packet message (the
// varint that precedes every message inside a demo packet) into the enum
// constant name Valve gives it, such as "svc_PacketEntities" or
// "DOTA_UM_ChatEvent".
//
// Source 2 games share one numbering space: engine messages (net_, clc_,
// svc_, bi_), base user messages (UM_), base entity messages (EM_), base game
// events (GE_) and temp entities (TE_) are common to every title, while each
// game adds its own user messages and game events on top. The common tables
// answer for every game, Unknown included; the game-specific tables answer
// only for their game, because the same number means different things in
// different games (466 is DOTA_UM_ChatEvent in Dota 2 but GE_RemoveBullet in
// Deadlock).
//
// When Valve renamed a constant the newest name is used. Constants Valve has
// since retired are kept when their number has not been reused, so that older
// replays still get a name.
//
// Files:
//
//	msgnames.go  Name, Display: lookup per game, built once from the tables
//	tables.go    the enum tables: common engine/base tables and each game's own
package msgnames
