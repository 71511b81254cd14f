use mcp_types::Elicit;

#[derive(Elicit)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
