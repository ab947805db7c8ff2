// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title PriceFeed
/// @notice A Chainlink-style push feed (AggregatorV3Interface, 8 decimals), as the ETH / USD
/// feed the reports price ETH with on Base. A keeper pushes rounds; every round stays readable
/// so a report at a past block reads the price that was live then.
contract PriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
    }

    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;
    address public keeper;
    uint80 public latestRound;
    mapping(uint80 => Round) private rounds;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);
    event NewRound(uint256 indexed roundId, address indexed startedBy, uint256 startedAt);

    error NotKeeper(address caller);
    error NoData(uint80 roundId);
    error NonPositiveAnswer(int256 answer);

    constructor(uint8 decimals_, string memory description_, address keeper_) {
        decimals = decimals_;
        description = description_;
        keeper = keeper_;
    }

    function submit(int256 answer) external {
        if (msg.sender != keeper) revert NotKeeper(msg.sender);
        if (answer <= 0) revert NonPositiveAnswer(answer);
        uint80 id = latestRound + 1;
        latestRound = id;
        rounds[id] = Round(answer, block.timestamp, block.timestamp);
        emit NewRound(id, msg.sender, block.timestamp);
        emit AnswerUpdated(answer, id, block.timestamp);
    }

    function getRoundData(uint80 roundId)
        public
        view
        returns (uint80, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round memory r = rounds[roundId];
        if (r.updatedAt == 0) revert NoData(roundId);
        return (roundId, r.answer, r.startedAt, r.updatedAt, roundId);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    function latestAnswer() external view returns (int256) {
        return rounds[latestRound].answer;
    }
}
