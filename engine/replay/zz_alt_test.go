package replay_test

var zzNoGC bool

func setAlt(b bool) {}
