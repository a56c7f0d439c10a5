package waisd

// ProbeSearch is a whole request, header and APDU (wais-notes §4, written
// out by hand): an empty-seed search of the database "demo", which the
// server answers with a reply of a non-zero length. The health probe
// sends it, and so do tests that time one exchange.
const ProbeSearch = "0000000032z2wais        0" +
	"\x00\x16\x16\x00\x00\x1e\x00\x13\x88\x00\x00\x1e\x01\x11\x00\x12\x04demo\x14\x013" +
	"\x63\x06\x6f\x01\x01\x72\x01\x28"
