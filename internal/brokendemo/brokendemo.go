// Package brokendemo writes small demos that are broken on purpose, the way
// a game patch breaks a parser: a field sent with another decoder than the
// schema says, or one bit missing from a field path. Tests of the
// diagnostics use them to check that the damage is found.
package brokendemo

import (
	"fmt"
	"io"

	"github.com/dembug/dembug/engine/container"
	"github.com/dembug/dembug/engine/decoder"
	"github.com/dembug/dembug/engine/entity"
	"github.com/dembug/dembug/engine/messages"
	"github.com/dembug/dembug/engine/provenance"
	"github.com/dembug/dembug/engine/replay"
	"github.com/dembug/dembug/engine/writer"
)

const unit = "CTestUnit"

// unitFields builds the test class; the flag chooses how m_flSpeed is
// declared: quantized (13 bits over 0..256) or a raw float.
func unitFields(quantizedSpeed bool) []writer.SerializerSpec {
	speed := writer.Field("m_flSpeed", "float32")
	if quantizedSpeed {
		speed = speed.WithBits(13).WithHigh(256).WithFlags(decoder.QuantRoundDown)
	}
	return []writer.SerializerSpec{{Name: unit, Fields: []writer.FieldSpec{
		writer.Field("m_iHealth", "int32"),
		writer.Field("m_iMaxHealth", "int32"),
		speed,
		writer.Field("m_iTeamNum", "uint8"),
		writer.Field("m_flMana", "float32"),
		writer.Field("m_szName", "char[32]"),
		writer.Field("m_nLevel", "int32"),
	}}}
}

var classes = []messages.Class{{ID: 0, NetworkName: unit, TableName: unit}}

// buildDemo writes a short demo: one unit created, then updated each tick.
func buildDemo(quantizedSpeed bool) []byte {
	h := messages.FileHeader{DemoFileStamp: container.Magic, GameDirectory: "/x/dota", BuildNum: 1, MapName: "test"}
	d, err := writer.NewDemo(h, messages.ServerInfo{MaxClasses: 1, TickInterval: 1.0 / 30}, unitFields(quantizedSpeed), classes)
	if err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	if err := d.Signon(); err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	ser := d.Serializer(unit)
	set := func(ch writer.Changes, name string, v decoder.Value) {
		if err := ch.Set(ser, name, v); err != nil {
			panic(fmt.Sprintf("brokendemo: %v", err))
		}
	}
	fr := d.Frame()
	ch := writer.Changes{}
	set(ch, "m_iHealth", decoder.Int(500))
	set(ch, "m_iMaxHealth", decoder.Int(600))
	set(ch, "m_flSpeed", decoder.Float(69.1875))
	set(ch, "m_iTeamNum", decoder.Uint(2))
	set(ch, "m_flMana", decoder.Float(120.5))
	set(ch, "m_szName", decoder.String("axe"))
	set(ch, "m_nLevel", decoder.Int(1))
	if err := fr.Create(5, 0, 1, ch); err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	if err := d.Packet(0, fr); err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	for tick := int32(1); tick <= 3; tick++ {
		fr := d.Frame()
		ch := writer.Changes{}
		set(ch, "m_iHealth", decoder.Int(int64(500-10*tick)))
		set(ch, "m_flSpeed", decoder.Float(float64(100+tick)))
		set(ch, "m_iTeamNum", decoder.Uint(2))
		set(ch, "m_flMana", decoder.Float(float64(90+tick)))
		set(ch, "m_nLevel", decoder.Int(int64(tick)))
		if err := fr.Update(5, ch); err != nil {
			panic(fmt.Sprintf("brokendemo: %v", err))
		}
		if err := d.Packet(tick, fr); err != nil {
			panic(fmt.Sprintf("brokendemo: %v", err))
		}
	}
	return d.Finish()
}

// rebuild copies a demo command by command, letting edit replace bodies.
func rebuild(data []byte, edit func(c *container.Command) []byte) []byte {
	cr, err := container.NewReader(data)
	if err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	f := writer.NewFile()
	for {
		c, err := cr.Next()
		if err == io.EOF {
			return f.Bytes()
		}
		if err != nil {
			panic(fmt.Sprintf("brokendemo: %v", err))
		}
		body := append([]byte(nil), c.Body...)
		if nb := edit(&c); nb != nil {
			body = nb
		}
		f.Command(c.Kind, c.Tick, body, false)
	}
}

func sendTables(data []byte) []byte {
	var out []byte
	rebuild(data, func(c *container.Command) []byte {
		if c.Kind == container.SendTables {
			out = append([]byte(nil), c.Body...)
		}
		return nil
	})
	return out
}

// dropBit removes one bit of the entity data inside a DEM_Packet body.
func dropBit(body []byte, bit uint) []byte {
	data, err := messages.PacketData(body)
	if err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	inner, _, err := messages.SplitInner(data, nil, nil)
	if err != nil {
		panic(fmt.Sprintf("brokendemo: %v", err))
	}
	var out []writer.Inner
	for _, m := range inner {
		b := append([]byte(nil), m.Body...)
		if m.Type == messages.SvcPacketEntities {
			pe, err := messages.ParsePacketEntities(b)
			if err != nil {
				panic(fmt.Sprintf("brokendemo: %v", err))
			}
			w := entity.WhatIf{Bit: bit, Skip: 1}
			pe.EntityData = w.Edit(pe.EntityData)
			b = writer.PacketEntitiesBody(pe)
		}
		out = append(out, writer.Inner{Type: m.Type, Body: b})
	}
	return writer.PacketBody(writer.Packet(out...))
}

// Speed is the field written as a raw float but declared quantized.
const Speed = "m_flSpeed"

// WrongDecoder returns a demo whose data sends m_flSpeed as a raw 32-bit
// float while its schema declares a 13-bit quantized float.
func WrongDecoder() []byte {
	declared := sendTables(buildDemo(true))
	return rebuild(buildDemo(false), func(c *container.Command) []byte {
		if c.Kind == container.SendTables {
			return declared
		}
		return nil
	})
}

// Mana is the field whose path op loses a bit.
const Mana = "m_flMana"

// DroppedPathBit returns a demo with the first bit of m_flMana's field-path
// op at tick 2 removed, and that bit's offset in the entity data.
func DroppedPathBit() ([]byte, uint) {
	good := buildDemo(true)
	r, err := replay.Open(good)
	if err != nil {
		panic(err)
	}
	var target *provenance.Field
	var rec provenance.Message
	r.Hooks.Record = func(loc replay.Location) *provenance.Message {
		if loc.Tick == 2 {
			return &rec
		}
		return nil
	}
	r.Hooks.Entities = func(_ replay.Location, _ *messages.PacketEntities, _ entity.Result, m *provenance.Message) {
		for i := range rec.Fields {
			if m != nil && rec.Fields[i].Name == Mana {
				f := rec.Fields[i]
				target = &f
			}
		}
	}
	if err := r.Run(nil); err != nil || target == nil {
		panic(fmt.Sprintf("brokendemo: no %s update at tick 2 (%v)", Mana, err))
	}
	return rebuild(good, func(c *container.Command) []byte {
		if c.Kind != container.Packet || c.Tick != 2 {
			return nil
		}
		return dropBit(c.Body, target.Op.Start)
	}), target.Op.Start
}
