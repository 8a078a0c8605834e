package p2p

// Limits the external tests (package p2p_test) check against.
const ChatBurst = chatBurst
